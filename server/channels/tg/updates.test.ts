import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { parseUpdate, type TgInbound } from '@/lib/tg/inbound';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { createProject } from '@/server/projects/project-service';
import { waitFor } from '@/server/testing/wait-for';
import { saveAndPublish } from '@/server/versions/bot-versions';
import {
  type AcceptedUpdate,
  type InboundProcessor,
  KEEP_PROCESSED_DAYS,
  processUpdate,
  storeUpdates as storeChannelUpdates,
  sweepChannelUpdates,
} from '../inbound/pipeline';
import { connectTgChannel } from './channel-service';
import { type FakeBot, type FakeBotApi, type Interception, startFakeBotApi } from './testing/fake-bot-api';
import { storeUpdates, tgInbound } from './updates';

/**
 * Accepted updates: processed at once by the process that stored them, under its hold; the
 * sweeper takes those whose holder died; each is processed once, each chat's in order.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-tg-updates-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let deps: EngineDeps;
let fake: FakeBotApi;
let bot: FakeBot;
let channelId: number;
let projectId: number;

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  fake = await startFakeBotApi({ limits: null });
  process.env.BLOCKBOT_TG_API_ROOT = fake.url;
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  deps = await getEngineDeps();
  projectId = (await createProject(db, { name: 'tg updates', plan: 'business' })).id;
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text: 'Got #{question}', trigger: { alternatives: '' } }],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
  bot = fake.addBot({ username: 'order_bot' });
  channelId = (await connectTgChannel(db, projectId, { token: bot.token, mode: 'polling' }, async () => {}))
    .id;
});
afterAll(async () => {
  await app?.dispose();
  await fake?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

let nextUpdate = 1;
let nextChat = 7000;

const textUpdate = (chat: number, text: string) => {
  const payload = {
    update_id: nextUpdate++,
    message: {
      message_id: nextUpdate,
      date: 1_700_000_000,
      chat: { id: chat, type: 'private', first_name: 'Ann' },
      from: { id: chat, is_bot: false, first_name: 'Ann' },
      text,
    },
  };
  return {
    updateId: payload.update_id,
    payload,
    inbound: parseUpdate(payload, { botUsername: 'order_bot' }),
  };
};

/** An update as the pipeline takes it from the tg channel (updates.ts). */
const accepted = (u: ReturnType<typeof textUpdate>): AcceptedUpdate<TgInbound> => ({
  externalId: String(u.updateId),
  order: u.updateId,
  chat: u.inbound.kind === 'message' ? String(u.inbound.chatId) : '',
  payload: u.payload,
  parsed: u.inbound,
});

/** A row as a process that died while holding it leaves it: unprocessed, its hold expired. */
const abandoned = (u: ReturnType<typeof textUpdate>, chat: number) =>
  db.channelUpdate.create({
    data: {
      channelId,
      externalId: String(u.updateId),
      updateId: BigInt(u.updateId),
      chat: String(chat),
      payload: u.payload,
      claimToken: 'a-process-that-died',
      claimedUntil: new Date(Date.now() - 1000),
      attempts: 1,
    },
  });

const messagesOf = async (chat: number) => {
  const client = await db.client.findFirst({ where: { projectId, platformId: String(chat) } });
  return client
    ? db.message.findMany({ where: { clientId: client.id }, orderBy: { id: 'asc' }, select: { text: true } })
    : [];
};

const repliesTo = (chat: number) =>
  fake.callsOf('sendMessage', bot.token).filter((c) => c.params.chat_id === String(chat));

const processed = (updateId: number) =>
  waitFor(
    () => db.channelUpdate.findFirst({ where: { channelId, updateId, processedAt: { not: null } } }),
    `update ${updateId} processed`,
  );

describe('processing accepted updates', () => {
  it('processes a stored update at once in the storing process, in update_id order per chat', async () => {
    const chat = nextChat++;
    const updates = ['one', 'two', 'three'].map((text) => textUpdate(chat, text));
    // Separate calls, as webhook requests arrive one after another: each is stored and answered
    // without waiting for the one before to be processed. (Two updates of a chat stored at the
    // same instant have no arrival order to keep: the later one stored first may go first.)
    for (const u of updates) await storeUpdates(deps, channelId, [u]);
    await processed(updates[2].updateId);
    expect((await messagesOf(chat)).map((m) => m.text)).toEqual([
      'one',
      'Got one',
      'two',
      'Got two',
      'three',
      'Got three',
    ]);
    // Processed means stored with its event, whose outbox then sends the answer.
    await waitFor(async () => repliesTo(chat).length === 3, 'the third answer sent');
    expect(repliesTo(chat).map((c) => c.params.text)).toEqual(['Got one', 'Got two', 'Got three']);
    // Nothing is left for the sweeper.
    expect(await sweepChannelUpdates(deps)).toBe(0);
  });

  it('leaves an update held by a live process to it: the sweeper does not take it', async () => {
    const chat = nextChat++;
    const u = textUpdate(chat, 'held');
    await db.channelUpdate.create({
      data: {
        channelId,
        externalId: String(u.updateId),
        updateId: BigInt(u.updateId),
        chat: String(chat),
        payload: u.payload,
        claimToken: 'a-live-process',
        claimedUntil: new Date(Date.now() + 60_000),
      },
    });
    expect(await sweepChannelUpdates(deps)).toBe(0);
    // Its holder processes it; a process holding another token does nothing.
    const row = await db.channelUpdate.findFirstOrThrow({ where: { channelId, updateId: u.updateId } });
    await processUpdate(deps, row.id, 'another-token');
    expect(await messagesOf(chat)).toEqual([]);
    await processUpdate(deps, row.id, 'a-live-process');
    expect((await messagesOf(chat)).map((m) => m.text)).toEqual(['held', 'Got held']);
    await processUpdate(deps, row.id, 'a-live-process');
    expect(repliesTo(chat)).toHaveLength(1);
  });

  it('processes once, by the sweeper, an update whose holder died', async () => {
    const chat = nextChat++;
    const u = textUpdate(chat, 'orphan');
    const row = await abandoned(u, chat);
    // Two sweepers at once (two workers): each update goes to one of them.
    const taken = await Promise.all([sweepChannelUpdates(deps), sweepChannelUpdates(deps)]);
    expect(taken[0] + taken[1]).toBe(1);
    expect(await db.channelUpdate.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      processedAt: expect.any(Date),
      attempts: 2,
      error: null,
    });
    expect((await messagesOf(chat)).map((m) => m.text)).toEqual(['orphan', 'Got orphan']);
    // The dead process's late attempt, or a resend by the messenger, changes nothing.
    await processUpdate(deps, row.id, 'a-process-that-died');
    await storeUpdates(deps, channelId, [u]);
    expect(await sweepChannelUpdates(deps)).toBe(0);
    expect(repliesTo(chat)).toHaveLength(1);
    expect(await db.channelUpdate.count({ where: { channelId, updateId: u.updateId } })).toBe(1);
  });

  it('keeps a chat in order across processes: a later update waits for an earlier one another process left', async () => {
    const chat = nextChat++;
    const first = textUpdate(chat, 'first');
    const second = textUpdate(chat, 'second');
    await abandoned(first, chat);
    // This process stores the later one: it must not overtake the earlier one.
    await storeUpdates(deps, channelId, [second]);
    await waitFor(
      () =>
        db.channelUpdate.findFirst({
          where: { channelId, updateId: second.updateId, claimedUntil: null, processedAt: null },
        }),
      'the later update left to the sweeper',
    );
    expect(await messagesOf(chat)).toEqual([]);
    expect(await sweepChannelUpdates(deps)).toBe(2);
    expect((await messagesOf(chat)).map((m) => m.text)).toEqual([
      'first',
      'Got first',
      'second',
      'Got second',
    ]);
  });

  it(`prunes processed updates older than ${KEEP_PROCESSED_DAYS} days, keeping newer and unprocessed ones`, async () => {
    const day = 24 * 3600 * 1000;
    const rows = [];
    // One after another, so their ids follow the list.
    for (const fields of [
      { processedAt: new Date(Date.now() - (KEEP_PROCESSED_DAYS + 1) * day) },
      { processedAt: new Date(Date.now() - (KEEP_PROCESSED_DAYS - 1) * day) },
      { processedAt: null, claimedUntil: new Date(Date.now() + 60_000), claimToken: 'live' },
    ])
      rows.push(
        await db.channelUpdate.create({
          data: {
            channelId,
            externalId: String(nextUpdate),
            updateId: BigInt(nextUpdate++),
            payload: {},
            ...fields,
          },
        }),
      );
    await sweepChannelUpdates(deps);
    const left = await db.channelUpdate.findMany({
      where: { id: { in: rows.map((r) => r.id) } },
      orderBy: { id: 'asc' },
    });
    expect(left.map((r) => r.id)).toEqual([rows[1].id, rows[2].id]);
  });
});

describe("a webhook's update, stored with its client claimed in the same statement", () => {
  // The webhook checks a request against its copy of the channel; the insert checks the copy.
  const secret = 'the-webhook-secret';
  const webhook = () => ({ secret, groupId: 'order_bot', projectId });
  beforeAll(async () => {
    await db.channel.update({
      where: { id: channelId },
      data: { receiveMode: 'webhook', inboundSecret: secret },
    });
  });

  /** A known client's messages and the bot's answers, after their first 'hello'. */
  const conversation = (...texts: string[]) => ['hello', ...texts].flatMap((t) => [t, `Got ${t}`]);
  const clientOf = (chat: number) =>
    db.client.findFirstOrThrow({ where: { projectId, platformId: String(chat) } });
  /**
   * A client who wrote before and whose chat is idle here (the answer's outcome recorded), so
   * the next update's statement finds and claims them.
   */
  async function knownClient(): Promise<number> {
    const chat = nextChat++;
    const u = textUpdate(chat, 'hello');
    expect(await storeUpdates(deps, channelId, [u], webhook())).toBe(true);
    await waitFor(
      () =>
        db.message.findFirst({
          where: { text: 'Got hello', delivered: true, client: { platformId: String(chat) } },
        }),
      'the answer recorded delivered',
    );
    return chat;
  }

  /** The tg processor, or `run` instead, started only once the gate opens. */
  function gated(run: InboundProcessor<TgInbound>['run'] = tgInbound.run) {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const processor: InboundProcessor<TgInbound> = {
      ...tgInbound,
      run: async (...args) => {
        await gate;
        return run(...args);
      },
    };
    return { processor, open };
  }

  it('claims the client as it stores the update, and runs the event on that claim', async () => {
    const chat = await knownClient();
    const { processor, open } = gated();
    const u = textUpdate(chat, 'one');
    expect(await storeChannelUpdates(deps, processor, channelId, [accepted(u)], webhook())).toBe(true);
    // Held before the processing starts: taken by the insert's statement.
    expect((await clientOf(chat)).leaseToken).not.toBeNull();
    open();
    await processed(u.updateId);
    expect((await messagesOf(chat)).map((m) => m.text)).toEqual(conversation('one'));
    expect(await clientOf(chat)).toMatchObject({ leaseToken: null, leaseUntil: null });
  });

  it('keeps a chat in update_id order whichever way each update is claimed', async () => {
    const chat = await knownClient();
    const updates = ['one', 'two', 'three'].map((text) => textUpdate(chat, text));
    for (const u of updates) expect(await storeUpdates(deps, channelId, [u], webhook())).toBe(true);
    await processed(updates[2].updateId);
    expect((await messagesOf(chat)).map((m) => m.text)).toEqual(conversation('one', 'two', 'three'));
    expect(await clientOf(chat)).toMatchObject({ leaseToken: null, leaseUntil: null });
  });

  it("runs a chat's next update while the previous answer is sent, and sends its answer after", async () => {
    const chat = await knownClient();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const arrived: string[] = [];
    fake.intercept = async ({ method, params }): Promise<Interception> => {
      if (method !== 'sendMessage' || params.chat_id !== String(chat)) return 'process';
      arrived.push(String(params.text));
      if (params.text === 'Got one') await held;
      return 'process';
    };
    try {
      const one = textUpdate(chat, 'one');
      const two = textUpdate(chat, 'two');
      expect(await storeUpdates(deps, channelId, [one], webhook())).toBe(true);
      await waitFor(async () => arrived.includes('Got one'), "the first answer's request at the messenger");
      expect(await storeUpdates(deps, channelId, [two], webhook())).toBe(true);
      // The second update's event is stored while the first answer is still on its way…
      await processed(two.updateId);
      // …and its answer waits for it.
      expect(arrived).toEqual(['Got one']);
      release();
      await waitFor(async () => repliesTo(chat).length === 3, 'both answers sent');
      expect(arrived).toEqual(['Got one', 'Got two']);
      expect((await messagesOf(chat)).map((m) => m.text)).toEqual(conversation('one', 'two'));
    } finally {
      release();
      fake.intercept = null;
    }
  });

  it('waits for a client another process holds, then runs the event', async () => {
    const chat = await knownClient();
    const { id } = await clientOf(chat);
    await db.client.update({
      where: { id },
      data: { leaseToken: 'another-process', leaseUntil: new Date(Date.now() + 60_000) },
    });
    const u = textUpdate(chat, 'waiting');
    expect(await storeUpdates(deps, channelId, [u], webhook())).toBe(true);
    // Stored and taken for processing, and the other process's lease untouched.
    expect(
      await db.channelUpdate.findFirstOrThrow({ where: { channelId, updateId: u.updateId } }),
    ).toMatchObject({ attempts: 1, processedAt: null });
    expect(await clientOf(chat)).toMatchObject({ leaseToken: 'another-process' });
    expect((await messagesOf(chat)).map((m) => m.text)).toEqual(conversation());
    // The other process's event ends.
    await db.client.update({ where: { id }, data: { leaseToken: null, leaseUntil: null } });
    await processed(u.updateId);
    expect((await messagesOf(chat)).map((m) => m.text)).toEqual(conversation('waiting'));
  });

  it('claims nothing for an update behind an earlier one of its chat, nor for a repeat', async () => {
    const chat = await knownClient();
    const first = textUpdate(chat, 'first');
    const second = textUpdate(chat, 'second');
    await abandoned(first, chat);
    expect(await storeUpdates(deps, channelId, [second], webhook())).toBe(true);
    await waitFor(
      () =>
        db.channelUpdate.findFirst({
          where: { channelId, updateId: second.updateId, claimedUntil: null, processedAt: null },
        }),
      'the later update left to the sweeper',
    );
    // A lease taken here would keep the sweeper's events waiting for it.
    expect(await clientOf(chat)).toMatchObject({ leaseToken: null });
    expect(await sweepChannelUpdates(deps)).toBe(2);
    // The messenger sends the second again: stored once, processed once.
    expect(await storeUpdates(deps, channelId, [second], webhook())).toBe(true);
    expect(await clientOf(chat)).toMatchObject({ leaseToken: null });
    expect((await messagesOf(chat)).map((m) => m.text)).toEqual(conversation('first', 'second'));
  });

  it('creates a first contact as a webhook update comes, claimed by its event', async () => {
    const chat = nextChat++;
    const u = textUpdate(chat, 'new here');
    expect(await storeUpdates(deps, channelId, [u], webhook())).toBe(true);
    await processed(u.updateId);
    expect((await messagesOf(chat)).map((m) => m.text)).toEqual(['new here', 'Got new here']);
    expect(await clientOf(chat)).toMatchObject({ leaseToken: null });
  });

  it('stores nothing and claims nothing on a stale copy of the channel', async () => {
    const chat = await knownClient();
    const u = textUpdate(chat, 'stale');
    expect(await storeUpdates(deps, channelId, [u], { ...webhook(), secret: 'an-old-secret' })).toBe(false);
    expect(await db.channelUpdate.count({ where: { channelId, updateId: u.updateId } })).toBe(0);
    expect(await clientOf(chat)).toMatchObject({ leaseToken: null });
    // The client's place here was given back: the next update runs.
    const next = textUpdate(chat, 'fresh');
    expect(await storeUpdates(deps, channelId, [next], webhook())).toBe(true);
    await processed(next.updateId);
  });

  it('frees a client claimed with its update when processing fails before the event', async () => {
    const chat = await knownClient();
    const { processor, open } = gated(async () => {
      throw new Error('the processor failed before its event');
    });
    const u = textUpdate(chat, 'lost');
    expect(await storeChannelUpdates(deps, processor, channelId, [accepted(u)], webhook())).toBe(true);
    expect((await clientOf(chat)).leaseToken).not.toBeNull();
    open();
    await waitFor(
      () =>
        db.channelUpdate.findFirst({
          where: { channelId, updateId: u.updateId, error: 'the processor failed before its event' },
        }),
      'the failed attempt recorded',
    );
    await waitFor(
      async () => (await clientOf(chat)).leaseToken === null,
      'the client claimed with the update freed',
    );
    // Its place here was given back too: the sweeper's retry runs the event.
    expect(await sweepChannelUpdates(deps)).toBe(1);
    expect((await messagesOf(chat)).map((m) => m.text)).toEqual(conversation('lost'));
  });
});
