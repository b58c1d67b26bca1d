import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_FROM } from '@/server/contacts/history-service';
import type { Plan } from '@/server/db/generated/client';
import { type BotDriver, EngineHarness } from '@/server/engine/testing/engine-harness';
import { DomainError } from '@/server/errors';
import { deliverWebhook } from '@/server/webhooks/webhook-delivery';
import { markWaitingDone, pauseBot, resumeBot } from './handoff';
import { getConversation } from './inbox-query';
import { replyToClient } from './operator-reply';

/**
 * The handoff through the real engine and database (docs/inbox.md): the pause, its timeout,
 * ask_operator() and operators' replies, with webhooks delivered over HTTP to a local receiver.
 */

let h: EngineHarness;
let receiver: http.Server;
let hookUrl: string;
/** What the receiver got: the webhook bodies, in order. */
const hooks: { message: string; is_input: number; delivered: number }[] = [];

beforeAll(async () => {
  h = await EngineHarness.create();
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      hooks.push(JSON.parse(body));
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // Deliveries at once, as the webhook job does, so a test reads what the receiver got.
  h.deps.queueWebhooks = async (projectId, deliveries) => {
    for (const d of deliveries) await deliverWebhook(h.deps.db, h.deps.http, projectId, d.target);
  };
});
afterAll(async () => {
  receiver?.closeAllConnections();
  receiver?.close();
  await h?.close();
});

const start = (id: number, text: string, alternatives = '') => ({
  id,
  kind: 'start' as const,
  text,
  trigger: { alternatives, match: 'exact' as const },
});

/** A bot that greets, then answers any reply; its project has a webhook. */
async function chattyBot(extra: { formula?: string } = {}, plan: Plan = 'business') {
  const bot = await h.bot(
    {
      blocks: [
        start(1, 'Welcome'),
        { id: 2, kind: 'state', text: 'Step two' },
        {
          id: 3,
          kind: 'start',
          text: 'An operator will answer soon',
          ...extra,
          trigger: { alternatives: 'help' },
        },
        { id: 4, kind: 'state', text: 'After the handoff' },
      ],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'unconditional' },
        { id: 2, from: 2, to: 2, kind: 'unconditional' },
        { id: 3, from: 3, to: 4, kind: 'continue' },
      ],
    },
    { plan },
  );
  await bot.db.project.update({
    where: { id: bot.projectId },
    data: { webhookUrl: hookUrl, webhookTestConversations: true },
  });
  return bot;
}

const hooksFor = (text: string) => hooks.filter((hook) => hook.message === text);

async function clientId(bot: BotDriver) {
  return (await bot.clientRow()).id;
}

describe('pausing the bot for a client', () => {
  it('stores an incoming message and routes it nowhere, still delivered to the webhook; resuming routes again', async () => {
    const bot = await chattyBot();
    expect(await bot.say('hi')).toEqual(['Welcome']);
    const id = await clientId(bot);
    await pauseBot(bot.db, bot.projectId, id, { now: h.now });

    expect(await bot.say('are you there?')).toEqual([]);
    expect((await bot.transcript()).at(-1)).toBe('> are you there?');
    expect((await bot.clientRow()).currentBlockId).toBe(1);
    expect(await bot.log('paused')).toMatchObject([{ text: 'are you there?' }]);
    expect(await bot.log('no_match')).toEqual([]);
    expect(hooksFor('are you there?')).toMatchObject([{ is_input: 1 }]);

    await resumeBot(bot.db, bot.projectId, id);
    expect(await bot.say('next')).toEqual(['Step two']);
  });

  it('routes a callback that hands the conversation back (resumesBot): caught, the pause ends; caught by nothing, it stays', async () => {
    const bot = await h.bot({
      blocks: [
        start(1, 'Welcome'),
        start(2, 'Nobody answered, back with the bot', 'transfer_failed'),
        { id: 3, kind: 'state', text: 'Step two' },
      ],
      arrows: [{ id: 1, from: 2, to: 3, kind: 'unconditional' }],
    });
    const back = {
      type: 'message' as const,
      text: 'transfer_failed',
      messageFromOutside: 5,
      resumesBot: true,
    };
    await bot.say('hi');
    const id = await clientId(bot);
    await pauseBot(bot.db, bot.projectId, id, { now: h.now });
    // Any other message or callback of a paused client is routed nowhere.
    expect((await bot.event({ ...back, resumesBot: false })).messages).toEqual([]);
    expect((await bot.event(back)).messages.map((m) => m.text)).toEqual([
      'Nobody answered, back with the bot',
    ]);
    expect((await bot.clientRow()).botPausedAt).toBeNull();
    expect(await bot.say('next')).toEqual(['Step two']);

    // Nothing catches it: the bot stays paused, and the event says so.
    await pauseBot(bot.db, bot.projectId, id, { now: h.now });
    expect((await bot.event({ ...back, text: 'nobody_listens' })).messages).toEqual([]);
    expect((await bot.clientRow()).botPausedAt).not.toBeNull();
    expect(await bot.log('paused')).toMatchObject([{ text: 'transfer_failed' }, { text: 'nobody_listens' }]);
  });

  it("ends by itself when the project's pause timeout passes; a pause until resumed does not", async () => {
    const bot = await chattyBot();
    await bot.db.project.update({ where: { id: bot.projectId }, data: { botPauseMinutes: 60 } });
    await bot.say('hi');
    const id = await clientId(bot);
    const paused = await pauseBot(bot.db, bot.projectId, id, { now: h.now });
    expect(paused.botPausedUntil).toEqual(new Date(h.now.getTime() + 60 * 60_000));
    h.advance(59 * 60_000);
    expect(await bot.say('still paused')).toEqual([]);
    h.advance(2 * 60_000);
    expect(await bot.say('back to the bot')).toEqual(['Step two']);

    await pauseBot(bot.db, bot.projectId, id, { now: h.now, indefinitely: true });
    h.advance(10 * 24 * 60 * 60_000);
    expect(await bot.say('days later')).toEqual([]);
    expect((await getConversation(bot.db, bot.projectId, id, { now: h.now })).client).toMatchObject({
      paused: true,
      pausedUntil: null,
    });
  });

  it('skips the timers that come due while it lasts, and the API entering a block', async () => {
    const bot = await h.bot({
      blocks: [start(1, 'Welcome'), { id: 2, kind: 'state', text: 'Reminder' }],
      arrows: [{ id: 1, from: 1, to: 2, kind: 'timer', timer: { delay: 5, unit: 'minutes' } }],
    });
    expect(await bot.say('hi')).toEqual(['Welcome']);
    const id = await clientId(bot);
    await pauseBot(bot.db, bot.projectId, id, { now: h.now });
    h.advance(6 * 60_000);
    expect(await h.runDueJobs()).toBe(1);
    expect(await bot.transcript()).toEqual(['> hi', '< Welcome']);
    expect(await bot.log('timer_cancelled')).toMatchObject([{ reason: 'the bot is paused for this client' }]);
    const timer = await bot.db.scheduledSend.findFirstOrThrow({ where: { clientId: id } });
    expect(timer.status).toBe('cancelled');

    const entered = await bot.event({
      type: 'enter_block',
      blockId: 2,
      messageFromOutside: MESSAGE_FROM.api,
    });
    expect(entered.messages).toEqual([]);
    expect((await bot.clientRow()).currentBlockId).toBe(1);
    // Resumed, nothing stale fires.
    await resumeBot(bot.db, bot.projectId, id);
    expect(await h.runDueJobs()).toBe(0);
  });

  it('answers for a client of the project only', async () => {
    const bot = await chattyBot();
    const other = await chattyBot();
    await other.say('hi');
    const foreign = await clientId(other);
    await expect(pauseBot(bot.db, bot.projectId, foreign)).rejects.toThrow(DomainError);
    await expect(resumeBot(bot.db, bot.projectId, foreign)).rejects.toThrow('does not exist in this project');
  });
});

describe('ask_operator()', () => {
  it('marks the conversation waiting and pauses the bot from that line on, for the pause timeout', async () => {
    const bot = await chattyBot({ formula: 'asked = ask_operator()' });
    await bot.say('hi');
    // The block's own message still goes; its continue arrow is not followed.
    expect(await bot.say('help')).toEqual(['An operator will answer soon']);
    const row = await bot.clientRow();
    expect(row.currentBlockId).toBe(3);
    expect(row.waitingSince).toEqual(h.now);
    expect(row.botPausedAt).toEqual(h.now);
    expect(row.botPausedUntil).toEqual(new Date(h.now.getTime() + 24 * 60 * 60_000));
    expect((await bot.variables()).deal.asked).toBe('True');
    expect(await bot.log('paused')).toMatchObject([{ blockId: 4, via: 'continue' }]);
    expect(await bot.say('hello?')).toEqual([]);

    // Done: the mark goes, the pause stays until resumed or timed out.
    await markWaitingDone(bot.db, bot.projectId, row.id);
    const after = await bot.clientRow();
    expect(after.waitingSince).toBeNull();
    expect(after.botPausedAt).toEqual(row.botPausedAt);
  });

  it("on the free plan fails saying where to change the plan, and the block's promise of an operator is not sent", async () => {
    const bot = await chattyBot({ formula: 'asked = ask_operator()' }, 'free');
    await bot.say('hi');
    // The block's other steps still run: its continue arrow is followed.
    expect(await bot.say('help')).toEqual(['After the handoff']);
    expect(await bot.transcript()).not.toContain('< An operator will answer soon');
    const row = await bot.clientRow();
    expect(row.waitingSince).toBeNull();
    expect(row.botPausedAt).toBeNull();
    const failed =
      'ask_operator() needs the business or AI plan; this project is on the free plan (change it in Settings, Plan)';
    expect(await bot.log('formula_error')).toMatchObject([{ blockId: 3, message: failed }]);
    expect((await bot.variables()).deal.asked).toBe(`Error: ${failed}`);
    expect(await bot.log('message_withheld')).toMatchObject([
      { blockId: 3, reason: 'its ask_operator() failed, so no operator was asked' },
    ]);
  });

  it('keeps a pause until resumed as it is, and the first waiting time', async () => {
    const bot = await chattyBot({ formula: 'ask_operator()' });
    await bot.say('hi');
    const id = await clientId(bot);
    const since = h.now;
    await bot.say('help');
    await resumeBot(bot.db, bot.projectId, id);
    await pauseBot(bot.db, bot.projectId, id, { now: h.now, indefinitely: true });
    h.advance(60_000);
    await bot.event({ type: 'enter_block', blockId: 3, messageFromOutside: MESSAGE_FROM.api });
    const row = await bot.clientRow();
    expect(row.waitingSince).toEqual(since);
    expect(row.botPausedUntil).toBeNull();
  });
});

describe("an operator's reply", () => {
  it('is stored with message_from_outside 2, sent as typed, delivered to the webhook, and read', async () => {
    const bot = await chattyBot();
    await bot.say('hi');
    const id = await clientId(bot);
    const member = await bot.db.projectMember.create({
      data: { projectId: bot.projectId, email: 'op@example.com', role: 'operator' },
    });
    const reply = await replyToClient(h.deps, bot.projectId, member.id, id, 'Hello #{name}, I am Ann');
    expect(reply).toMatchObject({ delivered: true, error: null });
    const stored = await bot.db.message.findUniqueOrThrow({ where: { id: reply.messageId } });
    expect(stored).toMatchObject({
      direction: 'out',
      text: 'Hello #{name}, I am Ann',
      messageFromOutside: MESSAGE_FROM.crm,
      delivered: true,
    });
    expect(hooksFor('Hello #{name}, I am Ann')).toMatchObject([{ is_input: 0, delivered: 1 }]);
    expect(await bot.log('operator_reply')).toMatchObject([{ memberId: member.id }]);
    // The bot's routing is untouched by a reply.
    expect((await bot.clientRow()).currentBlockId).toBe(1);
    const read = await bot.db.conversationRead.findUniqueOrThrow({
      where: { memberId_clientId: { memberId: member.id, clientId: id } },
    });
    expect(read.lastReadMessageId).toBe(reply.messageId);
  });

  it('refuses an empty or too long reply and a client of another project, storing nothing', async () => {
    const bot = await chattyBot();
    const other = await chattyBot();
    await bot.say('hi');
    await other.say('hi');
    const id = await clientId(bot);
    const before = await bot.db.message.count();
    await expect(replyToClient(h.deps, bot.projectId, 1, id, '   ')).rejects.toThrow('Type a reply first.');
    await expect(replyToClient(h.deps, bot.projectId, 1, id, 'x'.repeat(4097))).rejects.toThrow(
      'at most 4,096',
    );
    await expect(replyToClient(h.deps, bot.projectId, 1, await clientId(other), 'hi')).rejects.toThrow(
      'does not exist in this project',
    );
    expect(await bot.db.message.count()).toBe(before);
  });
});
