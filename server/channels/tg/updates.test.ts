import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { parseUpdate } from '@/lib/tg/inbound';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { createProject } from '@/server/projects/project-service';
import { waitFor } from '@/server/testing/wait-for';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { KEEP_PROCESSED_DAYS, processUpdate, sweepChannelUpdates } from '../inbound/pipeline';
import { connectTgChannel } from './channel-service';
import { type FakeBot, type FakeBotApi, startFakeBotApi } from './testing/fake-bot-api';
import { storeUpdates } from './updates';

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
