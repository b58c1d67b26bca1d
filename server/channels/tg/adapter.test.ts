import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { createProject } from '@/server/projects/project-service';
import { tgChannel } from './adapter';
import { botApiClient } from './bot-api';
import { connectTgChannel } from './channel-service';
import { type FakeBot, type FakeBotApi, startFakeBotApi } from './testing/fake-bot-api';

/** The adapter's sends against a fake Bot API that enforces the messenger's rate limits. */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-tg-adapter-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let fake: FakeBotApi;
let bot: FakeBot;
let projectId: number;
/** The fake's clock stands still from here until it has refused chat 2000 (see the 429 test). */
let frozenAt: number | null = null;
const fakeNow = () => {
  const refused = fake
    ?.callsOf('sendMessage', bot.token)
    .some((c) => c.params.chat_id === '2000' && c.status === 429);
  if (refused) frozenAt = null;
  return frozenAt ?? Date.now();
};

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  fake = await startFakeBotApi({ now: fakeNow });
  process.env.BLOCKBOT_TG_API_ROOT = fake.url;
  process.env.BLOCKBOT_BASE_URL = 'http://127.0.0.1:9';
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  projectId = (await createProject(db, { name: 'tg adapter', plan: 'business' })).id;
  bot = fake.addBot({ username: 'paced_bot' });
  await connectTgChannel(db, projectId, { token: bot.token, mode: 'webhook' }, async () => {});
});
afterAll(async () => {
  await app?.dispose();
  await fake?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const tgClient = async (platformId: string) => {
  const row = await db.client.create({
    data: { projectId, clientType: 1, groupId: 'paced_bot', platformId },
  });
  return { id: row.id, projectId, platformId, groupId: 'paced_bot', clientType: 1 };
};
/** A send the messenger took, answered with the id it gave the message (its last part's). */
const SENT = { delivered: true, externalId: expect.stringMatching(/^\d+$/) };

const message = { text: 'Your order shipped', attachments: [], buttons: null, blockId: null };

it("waits out a 429's retry_after, then delivers", async () => {
  // Another process of the same bot used up this second. (The fake's second lasts until it has
  // refused our send, however long the 30 calls take on a busy machine.)
  frozenAt = Date.now();
  const other = botApiClient(bot.token);
  for (let i = 0; i < 30; i++) await other.call((api) => api.sendMessage(1_000 + i, 'other'));
  const client = await tgClient('2000');
  expect(await tgChannel.send(client, message, { db })).toEqual(SENT);
  const mine = fake.callsOf('sendMessage', bot.token).filter((c) => c.params.chat_id === '2000');
  expect(mine.map((c) => c.status)).toEqual([429, 200]);
  expect(mine[1].at - mine[0].at).toBeGreaterThanOrEqual(1000 - 50);
});

it('unsubscribes a client who blocked the bot and does not retry', async () => {
  const client = await tgClient('3000');
  fake.blockChat(bot.token, 3000);
  const result = await tgChannel.send(client, message, { db });
  expect(result).toMatchObject({ delivered: false, error: expect.stringContaining('blocked') });
  expect((await db.client.findUniqueOrThrow({ where: { id: client.id } })).subscribed).toBe(false);
  expect(fake.callsOf('sendMessage', bot.token).filter((c) => c.params.chat_id === '3000')).toHaveLength(1);
});

it('paces several messages to one chat at one a second, with no 429', async () => {
  const client = await tgClient('4000');
  const started = Date.now();
  for (let i = 0; i < 3; i++) expect(await tgChannel.send(client, message, { db })).toEqual(SENT);
  const calls = fake.callsOf('sendMessage', bot.token).filter((c) => c.params.chat_id === '4000');
  expect(calls.map((c) => c.status)).toEqual([200, 200, 200]);
  expect(Date.now() - started).toBeGreaterThanOrEqual(2000 - 50);
});
