import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { simulatorClientRef } from '@/server/channels/simulator/simulator-service';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import { handleEvent } from '@/server/engine/handle-event';
import { createProject } from '@/server/projects/project-service';
import type { TRPCContext } from '@/server/trpc/init';
import { createCaller } from '@/server/trpc/root';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { pauseBot } from './handoff';
import { listConversations, markRead } from './inbox-query';

/**
 * The inbox's list on the app's database (the procedures' engine uses it too): filters, unread
 * counts per member, order, paging, and one project never seeing another's conversations.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-inbox-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
});
afterAll(async () => {
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A project whose bot answers every message; a driver for its simulator clients. */
async function echoBot() {
  const { id: projectId } = await createProject(db, { name: 'inbox', plan: 'business' });
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text: 'Got it', trigger: { alternatives: '' } }],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
  const client = (platformId: string) => {
    const ref = simulatorClientRef(platformId, `Tester ${platformId}`);
    return {
      say: async (text: string) =>
        handleEvent(await getEngineDeps(), projectId, { ref }, { type: 'message', text }),
      clientRow: () => db.client.findFirstOrThrow({ where: { projectId, platformId: `user:${platformId}` } }),
    };
  };
  return { projectId, db, client, ...client('tester') };
}

async function member(projectId: number, email: string) {
  const user = await db.user.create({ data: { id: `u-${email}`, email, name: email.split('@')[0] } });
  const row = await db.projectMember.create({
    data: { projectId, email, userId: user.id, role: 'operator', name: user.name },
  });
  const caller = createCaller({
    db,
    session: { user, session: { id: `s-${user.id}`, userId: user.id } } as unknown as TRPCContext['session'],
  });
  return { ...row, caller };
}

describe('the conversations list', () => {
  it('lists a last message with a file and no text by the file’s kind', async () => {
    const bot = await echoBot();
    const ann = await member(bot.projectId, 'files@example.com');
    await bot.say('hi');
    const client = await bot.clientRow();
    // Paused, the bot does not answer: the client's file stays the last message.
    await pauseBot(db, bot.projectId, client.id);
    await handleEvent(
      await getEngineDeps(),
      bot.projectId,
      { clientId: client.id },
      { type: 'message', text: '', attachments: [{ type: 'image', url: 'https://files.example/cat.png' }] },
    );
    const [listed] = (await listConversations(db, bot.projectId, ann.id, { filter: 'all' })).conversations;
    expect(listed.lastMessage).toEqual({ text: '[Image]', direction: 'in', from: null });
  });

  it('lists newest first with the last message, filters, per-member unread counts and pages', async () => {
    const bot = await echoBot();
    const ann = await member(bot.projectId, 'ann@example.com');
    const bob = await member(bot.projectId, 'bob@example.com');
    const [first, second, third] = ['first', 'second', 'third'].map((p) => bot.client(p));
    await first.say('one');
    await second.say('two');
    await second.say('two again');
    await third.say('three');
    // A client the API created but who never wrote is no conversation.
    await db.client.create({ data: { projectId: bot.projectId, platformId: 'silent', clientType: 99 } });

    const ids = {
      first: (await first.clientRow()).id,
      second: (await second.clientRow()).id,
      third: (await third.clientRow()).id,
    };
    await db.client.update({ where: { id: ids.first }, data: { assignedMemberId: ann.id } });
    const since = new Date();
    await db.client.update({ where: { id: ids.second }, data: { waitingSince: since } });
    await pauseBot(db, bot.projectId, ids.second);
    // Ann has read the second conversation up to its first message.
    const secondIn = await db.message.findFirstOrThrow({ where: { clientId: ids.second, text: 'two' } });
    await markRead(db, bot.projectId, ann.id, ids.second, secondIn.id);

    const list = async (filter: 'all' | 'mine' | 'unassigned' | 'waiting', memberId = ann.id) =>
      (await listConversations(db, bot.projectId, memberId, { filter })).conversations;

    const all = await list('all');
    expect(all.map((c) => c.clientId)).toEqual([ids.third, ids.second, ids.first]);
    expect(all[0]).toMatchObject({
      name: 'Tester third',
      messenger: 'Simulator',
      lastMessage: { text: 'Got it', direction: 'out' },
      unread: 1,
      paused: false,
      assigned: null,
    });
    expect(all[1]).toMatchObject({ unread: 1, paused: true });
    expect(all[1].waitingSince).toEqual(since);
    expect(all[2]).toMatchObject({ assigned: { memberId: ann.id, email: 'ann@example.com' } });
    expect((await list('all', bob.id)).map((c) => c.unread)).toEqual([1, 2, 1]);

    expect((await list('mine')).map((c) => c.clientId)).toEqual([ids.first]);
    expect(await list('mine', bob.id)).toEqual([]);
    expect((await list('unassigned')).map((c) => c.clientId)).toEqual([ids.third, ids.second]);
    expect((await list('waiting')).map((c) => c.clientId)).toEqual([ids.second]);

    // A read marker only moves forward, and only to a message of that conversation.
    const latest = await db.message.findFirstOrThrow({
      where: { clientId: ids.second },
      orderBy: { id: 'desc' },
    });
    await markRead(db, bot.projectId, ann.id, ids.second, latest.id);
    await markRead(db, bot.projectId, ann.id, ids.second, secondIn.id);
    const thirdMessage = await db.message.findFirstOrThrow({ where: { clientId: ids.third } });
    await markRead(db, bot.projectId, ann.id, ids.second, thirdMessage.id);
    expect((await list('all')).map((c) => c.unread)).toEqual([1, 0, 1]);

    // Pages of one, by the cursor, cover the list once.
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await listConversations(db, bot.projectId, ann.id, { limit: 1, cursor });
      seen.push(...page.conversations.map((c) => c.clientId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([ids.third, ids.second, ids.first]);
    // A new message moves its conversation to the top.
    await first.say('one more');
    expect((await list('all')).map((c) => c.clientId)).toEqual([ids.first, ids.third, ids.second]);
    await expect(listConversations(db, bot.projectId, ann.id, { cursor: 'garbage' })).rejects.toThrow(
      'out of date',
    );
  });

  it("shows a member only their own project's conversations, through the procedures too", async () => {
    const mine = await echoBot();
    const theirs = await echoBot();
    const ann = await member(mine.projectId, 'ann2@example.com');
    await mine.client('a').say('mine');
    await theirs.client('b').say('theirs');
    const foreign = (await theirs.client('b').clientRow()).id;

    const page = await ann.caller.inbox.list({ projectId: mine.projectId, filter: 'all' });
    expect(page.conversations.map((c) => c.lastMessage?.text)).toEqual(['Got it']);
    await expect(ann.caller.inbox.list({ projectId: theirs.projectId })).rejects.toThrow('not a member');
    // A client of another project, named through the member's own project, is not found.
    for (const call of [
      () => ann.caller.inbox.conversation({ projectId: mine.projectId, clientId: foreign }),
      () => ann.caller.inbox.pause({ projectId: mine.projectId, clientId: foreign }),
      () => ann.caller.inbox.reply({ projectId: mine.projectId, clientId: foreign, text: 'hi' }),
      () => ann.caller.inbox.assign({ projectId: mine.projectId, clientId: foreign }),
    ])
      await expect(call()).rejects.toThrow(/does not exist/);
    await expect(
      ann.caller.inbox.reply({ projectId: mine.projectId, clientId: foreign, text: '' }),
    ).rejects.toThrow('Type a reply first.');
    expect(await theirs.db.message.count({ where: { clientId: foreign } })).toBe(2);
  });

  it('assigns a conversation by hand with the API’s assignment, by e-mail or round-robin', async () => {
    const bot = await echoBot();
    const ann = await member(bot.projectId, 'ann3@example.com');
    await bot.say('hello');
    const id = (await bot.clientRow()).id;
    const assigned = await ann.caller.inbox.assign({
      projectId: bot.projectId,
      clientId: id,
      email: 'ANN3@example.com',
    });
    expect(assigned).toMatchObject({ memberId: ann.id });
    const page = await ann.caller.inbox.list({ projectId: bot.projectId, filter: 'mine' });
    expect(page.conversations.map((c) => c.clientId)).toEqual([id]);
    // Answered through the procedure: in the conversation, read by the one who answered.
    const reply = await ann.caller.inbox.reply({ projectId: bot.projectId, clientId: id, text: 'On it' });
    expect(reply).toMatchObject({ delivered: true, error: null });
    const open = await ann.caller.inbox.conversation({ projectId: bot.projectId, clientId: id });
    expect(open.messages.map((m) => [m.text, m.messageFromOutside])).toEqual([
      ['hello', 0],
      ['Got it', 0],
      ['On it', 2],
    ]);
    const listed = await ann.caller.inbox.list({ projectId: bot.projectId });
    expect(listed.conversations[0]).toMatchObject({ unread: 0, lastMessage: { text: 'On it' } });
    await expect(
      ann.caller.inbox.assign({ projectId: bot.projectId, clientId: id, email: 'nobody@example.com' }),
    ).rejects.toThrow('No active employee');
  });

  it('names the client the same everywhere and labels each message with its sender', async () => {
    const bot = await echoBot();
    const ann = await member(bot.projectId, 'names@example.com');
    await db.projectMember.update({ where: { id: ann.id }, data: { name: 'Ann Operator' } });
    await bot.say('hello');
    const { id } = await bot.clientRow();
    // A visitor who gave no name: named by the messenger and the id, never by the raw platform id.
    await db.client.update({ where: { id }, data: { name: '' } });
    const listed = async () => (await ann.caller.inbox.list({ projectId: bot.projectId })).conversations[0];
    expect(await listed()).toMatchObject({
      displayName: `Test client ${id}`,
      lastMessage: { text: 'Got it', from: 'Bot' },
    });
    const search = await ann.caller.clients.search({ projectId: bot.projectId });
    expect(search.clients.find((c) => c.id === id)?.displayName).toBe(`Test client ${id}`);
    const profile = await ann.caller.clients.profile({ projectId: bot.projectId, clientId: id });
    expect(profile.displayName).toBe(`Test client ${id}`);

    await ann.caller.inbox.reply({ projectId: bot.projectId, clientId: id, text: 'On it' });
    expect((await listed()).lastMessage).toEqual({ text: 'On it', direction: 'out', from: 'Ann Operator' });
    const open = await ann.caller.inbox.conversation({ projectId: bot.projectId, clientId: id });
    expect(open.client.displayName).toBe(`Test client ${id}`);
    expect(open.messages.map((m) => [m.text, m.operator])).toEqual([
      ['hello', null],
      ['Got it', null],
      ['On it', 'Ann Operator'],
    ]);
    // The member who answered is recorded on the message; removing them keeps the message.
    const stored = await db.message.findFirstOrThrow({ where: { clientId: id, text: 'On it' } });
    expect(stored.senderMemberId).toBe(ann.id);
    await db.projectMember.delete({ where: { id: ann.id } });
    expect((await db.message.findUniqueOrThrow({ where: { id: stored.id } })).senderMemberId).toBeNull();
  });

  it('counts a paused conversation whose last client message is unanswered as waiting', async () => {
    const bot = await echoBot();
    const ann = await member(bot.projectId, 'waiting@example.com');
    const [paused, answered, active] = ['paused', 'answered', 'active'].map((p) => bot.client(p));
    for (const c of [paused, answered, active]) await c.say('hi');
    const ids = {
      paused: (await paused.clientRow()).id,
      answered: (await answered.clientRow()).id,
      active: (await active.clientRow()).id,
    };
    await pauseBot(db, bot.projectId, ids.paused);
    await pauseBot(db, bot.projectId, ids.answered);
    // Paused, nobody answers these; the bot answers the active client's.
    await paused.say('anyone there?');
    await answered.say('hello?');
    await ann.caller.inbox.reply({ projectId: bot.projectId, clientId: ids.answered, text: 'Here' });
    await active.say('still there');

    const waiting = await listConversations(db, bot.projectId, ann.id, { filter: 'waiting' });
    expect(waiting.conversations.map((c) => c.clientId)).toEqual([ids.paused]);
    expect(waiting.waitingCount).toBe(1);
    const all = await listConversations(db, bot.projectId, ann.id, { filter: 'all' });
    expect(all.waitingCount).toBe(1);
    expect(all.conversations.map((c) => [c.clientId, c.waiting])).toEqual([
      [ids.active, false],
      [ids.answered, false],
      [ids.paused, true],
    ]);
    const open = await ann.caller.inbox.conversation({ projectId: bot.projectId, clientId: ids.paused });
    expect(open.client.waiting).toBe(true);

    // Answered, it waits no more.
    await ann.caller.inbox.reply({ projectId: bot.projectId, clientId: ids.paused, text: 'Yes' });
    expect((await listConversations(db, bot.projectId, ann.id, { filter: 'waiting' })).waitingCount).toBe(0);
  });
});
