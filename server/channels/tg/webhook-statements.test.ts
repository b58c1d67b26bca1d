import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { serveChannelRoutes } from '@/server/channels/testing/channel-routes';
import { getDatabase, getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { PipelinedClient } from '@/server/db/pipelined-client';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { recordSends } from '@/server/engine/store/outbox';
import { createProject } from '@/server/projects/project-service';
import type { RouteServer } from '@/server/testing/route-server';
import { waitFor } from '@/server/testing/wait-for';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { connectTgChannel } from './channel-service';
import { type FakeBot, type FakeBotApi, startFakeBotApi } from './testing/fake-bot-api';

/**
 * What one update costs the database, and the webhook's copy of its channel: read once, and
 * never trusted once the channel changed (on this instance or another).
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-tg-webhook-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let fake: FakeBotApi;
let routeServer: RouteServer;
let bot: FakeBot;
let channelId: number;

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  fake = await startFakeBotApi({ limits: null });
  routeServer = await serveChannelRoutes();
  process.env.BLOCKBOT_TG_API_ROOT = fake.url;
  process.env.BLOCKBOT_BASE_URL = routeServer.url;
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  const projectId = (await createProject(db, { name: 'tg statements', plan: 'business' })).id;
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text: 'Got #{question}', trigger: { alternatives: '' } }],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
  bot = fake.addBot({ username: 'count_bot' });
  channelId = (await connectTgChannel(db, projectId, { token: bot.token, mode: 'webhook' }, async () => {}))
    .id;
});
afterAll(async () => {
  await app?.dispose();
  await fake?.close();
  routeServer?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const chat = 9100;
let nextMessage = 1;
const message = (text: string) => ({
  message: {
    message_id: nextMessage++,
    date: 1_700_000_000,
    chat: { id: chat, type: 'private', first_name: 'Ann' },
    from: { id: chat, is_bot: false, first_name: 'Ann' },
    text,
  },
});

const answered = (text: string) =>
  fake.waitForCall(
    (c) => c.token === bot.token && c.method === 'sendMessage' && c.params.text === `Got ${text}`,
  );

/**
 * Statements the app sends to the database while `fn` runs and until the send's outcome is
 * recorded (the update's last statement), BEGIN and COMMIT included; the job queue's own are
 * left out.
 */
async function statementsOfUpdate(fn: () => Promise<unknown>): Promise<number> {
  const database = await getDatabase();
  const text = (arg: unknown) => (typeof arg === 'string' ? arg : ((arg as { text?: string }).text ?? ''));
  let count: () => number;
  let outcomeRecorded: () => boolean;
  const spies: { mockRestore(): void }[] = [];
  if (database.pglite) {
    // Every PGlite statement runs through the first; plain ones (the job queue's, the outcome's)
    // through the second or third too.
    const all = vi.spyOn(
      database.pglite as unknown as { _runExclusiveQuery(): Promise<unknown> },
      '_runExclusiveQuery',
    );
    const plain = vi.spyOn(database.pglite, 'query');
    const exec = vi.spyOn(database.pglite, 'exec');
    spies.push(all, plain, exec);
    const queue = () => [...plain.mock.calls, ...exec.mock.calls].filter(([t]) => t.includes('pgboss.'));
    count = () => all.mock.calls.length - queue().length;
    outcomeRecorded = () => plain.mock.calls.some(([t]) => t === recordSends.statement.text);
  } else {
    // The app's pool is of PipelinedClients; the job queue has its own.
    const query = vi.spyOn(pg.Client.prototype, 'query');
    spies.push(query);
    const ours = () => query.mock.calls.filter((_, i) => query.mock.contexts[i] instanceof PipelinedClient);
    count = () => ours().length;
    outcomeRecorded = () => ours().some(([arg]) => text(arg) === recordSends.statement.text);
  }
  try {
    await fn();
    await waitFor(async () => outcomeRecorded(), 'the send outcome recorded');
    return count();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

describe('an update through the webhook', () => {
  it('takes four statements once its channel is known', async () => {
    // The first update reads the channel and creates the client.
    await fake.pushUpdate(bot.token, message('first'));
    await answered('first');
    await waitFor(
      () => db.message.findFirst({ where: { text: 'Got first', delivered: true } }),
      'the first answer recorded delivered',
    );
    const count = await statementsOfUpdate(async () => {
      expect(await fake.pushUpdate(bot.token, message('second'))).toMatchObject({ status: 200 });
      await answered('second');
    });
    // The update stored (taken for processing as it is stored, the channel checked, and its
    // client claimed with its state, in the same statement); the event stored with the update
    // marked processed; the send's bot and route with its pacing slot; the outcome.
    expect(count).toBe(4);
    expect(
      await db.channelUpdate.findMany({
        where: { channelId },
        select: { processedAt: true, attempts: true },
      }),
    ).toEqual([
      { processedAt: expect.any(Date), attempts: 1 },
      { processedAt: expect.any(Date), attempts: 1 },
    ]);
  });

  it('checks a new secret of the channel at once, and refuses the old one, storing nothing', async () => {
    const old = fake.bot(bot.token).webhook?.secretToken ?? '';
    // Another instance changes the secret: this one's copy is stale.
    await db.channel.update({
      where: { id: channelId },
      data: { inboundSecret: 'a-new-secret-of-the-channel' },
    });
    const before = await db.channelUpdate.count();
    const post = (secret: string, text: string) =>
      fetch(`${routeServer.url}/api/channels/tg/${channelId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
        body: JSON.stringify({ update_id: 100 + nextMessage, ...message(text) }),
      });
    expect((await post(old, 'stale')).status).toBe(403);
    expect(await db.channelUpdate.count()).toBe(before);
    expect((await post('a-new-secret-of-the-channel', 'fresh')).status).toBe(200);
    await answered('fresh');
    expect(await db.channelUpdate.count()).toBe(before + 1);
  });

  it('answers 404 for a channel disconnected meanwhile, storing nothing', async () => {
    const secret = 'a-new-secret-of-the-channel';
    await db.channel.delete({ where: { id: channelId } });
    const response = await fetch(`${routeServer.url}/api/channels/tg/${channelId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      body: JSON.stringify({ update_id: 999, ...message('gone') }),
    });
    expect(response.status).toBe(404);
    expect(await db.channelUpdate.count({ where: { updateId: 999 } })).toBe(0);
  });
});
