import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRequestListener } from '@/scripts/request-listener.mjs';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { createProject } from '@/server/projects/project-service';
import { waitFor } from '@/server/testing/wait-for';
import { connectTgChannel } from './channel-service';
import { type FakeBotApi, startFakeBotApi } from './testing/fake-bot-api';
import { exposeTgWebhookToProductionServer } from './webhook';

/**
 * The tg webhook as the production server (`npm start`, scripts/start.mjs) serves it once the
 * route's module has loaded: straight from node:http through the same request listener, without
 * Next.js's router (which here only answers 418, to show it was not asked).
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-tg-node-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let fake: FakeBotApi;
let server: http.Server;
let url: string;
let channelId: number;
let secret: string;
const askedNext: string[] = [];

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  fake = await startFakeBotApi({ limits: null });
  exposeTgWebhookToProductionServer();
  server = http.createServer(
    createRequestListener((req, res) => {
      askedNext.push(`${req.method} ${req.url}`);
      res.writeHead(418).end();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.BLOCKBOT_TG_API_ROOT = fake.url;
  process.env.BLOCKBOT_BASE_URL = url;
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  const projectId = (await createProject(db, { name: 'tg node', plan: 'business' })).id;
  const bot = fake.addBot({ username: 'node_bot' });
  channelId = (await connectTgChannel(db, projectId, { token: bot.token, mode: 'webhook' }, async () => {}))
    .id;
  secret = fake.bot(bot.token).webhook?.secretToken ?? '';
});
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await app?.dispose();
  await fake?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function post(body: string, headers: Record<string, string>, to = channelId) {
  const response = await fetch(`${url}/api/channels/tg/${to}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, body: await response.json() };
}
const update = (updateId: number) =>
  JSON.stringify({
    update_id: updateId,
    message: {
      message_id: 1,
      date: 1_700_000_000,
      chat: { id: 77, type: 'private', first_name: 'Ann' },
      from: { id: 77, is_bot: false, first_name: 'Ann' },
      text: 'hello',
    },
  });

it('stores an update with the right secret and answers {"ok":true}, without Next.js', async () => {
  const auth = { 'x-telegram-bot-api-secret-token': secret };
  expect(await post(update(1), auth)).toEqual({ status: 200, body: { ok: true } });
  await waitFor(
    () => db.channelUpdate.findFirst({ where: { channelId, updateId: 1, processedAt: { not: null } } }),
    'the update processed',
  );
  expect(askedNext).toEqual([]);
});

it('refuses a wrong secret (403) and an unknown channel (404), storing nothing', async () => {
  const before = await db.channelUpdate.count();
  expect(await post(update(2), { 'x-telegram-bot-api-secret-token': 'wrong' })).toMatchObject({
    status: 403,
    body: { ok: false, description: expect.stringContaining('secret') },
  });
  expect(await post(update(2), {})).toMatchObject({ status: 403 });
  expect(await post(update(2), { 'x-telegram-bot-api-secret-token': secret }, 999_999)).toMatchObject({
    status: 404,
  });
  expect(await db.channelUpdate.count()).toBe(before);
});

it('answers 200 to a body over 1 MB or not JSON, recording why on the channel', async () => {
  const auth = { 'x-telegram-bot-api-secret-token': secret };
  const lastError = async () => (await db.channel.findUniqueOrThrow({ where: { id: channelId } })).lastError;
  const big = JSON.stringify({ update_id: 3, message: { text: 'x'.repeat(3 * 1024 * 1024) } });
  expect(await post(big, auth)).toEqual({ status: 200, body: { ok: true } });
  expect(await lastError()).toMatch(/^An update was not processed: it is over 1048576 bytes/);
  expect(await post('{"update_id":', auth)).toEqual({ status: 200, body: { ok: true } });
  expect(await lastError()).toBe('An update was not processed: its body is not JSON');
});

it('leaves other paths and methods to Next.js', async () => {
  expect((await fetch(`${url}/api/channels/tg/${channelId}`)).status).toBe(418);
  expect((await fetch(`${url}/api/channels/tg/abc`, { method: 'POST', body: '{}' })).status).toBe(418);
  expect(askedNext).toEqual([`GET /api/channels/tg/${channelId}`, 'POST /api/channels/tg/abc']);
});
