import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { POST as authRoute } from '@/app/api/auth/[...all]/route';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { connectTgChannel } from '@/server/channels/tg/channel-service';
import { type FakeBotApi, startFakeBotApi } from '@/server/channels/tg/testing/fake-bot-api';
import { exposeTgWebhookToProductionServer } from '@/server/channels/tg/webhook';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { type FakeApi, startFakeApi } from '@/server/engine/testing/fake-api-server';
import { createApiKey } from '@/server/projects/api-keys';
import { createProject } from '@/server/projects/project-service';
import { startApiServer } from '@/server/public-api/testing/api-server';
import { setSecret } from '@/server/secrets/secret-service';
import { type CapturedLog, captureLog } from '@/server/testing/captured-log';
import { startRecordingReceiver } from '@/server/testing/recording-receiver';
import { type RouteServer, serveRoutes } from '@/server/testing/route-server';
import { waitFor } from '@/server/testing/wait-for';
import { saveAndPublish } from '@/server/versions/bot-versions';

/**
 * Issue 54's promise about logs: a run of real traffic (sign-up, public API calls that succeed
 * and fail, a block request with a project secret, signed webhook deliveries, a tg update and
 * the bot's answer) logs none of the secrets and texts it carried, at the default level; and one
 * request's lines, and its jobs' lines in the worker, carry the id its answer named.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-log-secrets-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let api: Awaited<ReturnType<typeof startApiServer>>;
let auth: RouteServer;
let fakeApi: FakeApi;
let fakeTg: FakeBotApi;
let receiver: Awaited<ReturnType<typeof startRecordingReceiver>>;
let captured: CapturedLog | undefined;

const PASSWORD = 'planted-password-7Qx2';
const SECRET_VALUE = 'planted-secret-4Hn8';
const CLIENT_TEXT = 'planted client text 3Kd9';
const TG_TEXT = 'planted tg text 6Wb1';

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  fakeTg = await startFakeBotApi({ limits: null });
  process.env.BLOCKBOT_TG_API_ROOT = fakeTg.url;
  api = await startApiServer();
  process.env.BLOCKBOT_BASE_URL = api.url;
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  exposeTgWebhookToProductionServer();
  auth = await serveRoutes([
    { method: 'POST', pattern: /^\/api\/auth\/(?<all>.+)$/, handler: authRoute, catchAll: 'all' },
  ]);
  fakeApi = await startFakeApi();
  receiver = await startRecordingReceiver();
  const { startWorkers } = await import('@/server/jobs/jobs');
  const { jobDefinitions } = await import('@/server/jobs/registry');
  await startWorkers(jobDefinitions);
});
afterAll(async () => {
  captured?.restore();
  await api?.close();
  auth?.close();
  await fakeApi?.close();
  receiver?.close();
  await app?.dispose();
  await fakeTg?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A public API call through the production server's request listener. */
async function call(key: string, action: string, params: Record<string, unknown>) {
  const response = await fetch(`${api.url}/api/${key}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the test reads the API's JSON answers
  const body = (await response.json()) as Record<string, any>;
  return { status: response.status, requestId: response.headers.get('x-request-id'), body };
}

async function setUpProject() {
  const project = await createProject(db, { name: 'Logs', owner: { email: 'owner@example.com' } });
  await saveAndPublish(db, project.id, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { id: 1, kind: 'start', text: 'Welcome', trigger: { alternatives: '' } },
      {
        id: 2,
        kind: 'start',
        text: 'Ordered',
        trigger: { alternatives: 'order' },
        request: {
          type: 'POST-json',
          url: `${fakeApi.url}/echo`,
          headers: '{"Authorization": "Bearer #{secret.API_KEY}"}',
          params: '{"token": "#{secret.API_KEY}"}',
        },
      },
    ],
    arrows: [],
  });
  await setSecret(db, project.id, 'API_KEY', SECRET_VALUE);
  const { webhookSecret } = await db.project.update({
    where: { id: project.id },
    data: { webhookUrl: receiver.url, webhookTestConversations: true },
  });
  const key = (await createApiKey(db, project.id, { name: 'main' })).key;
  return { projectId: project.id, key, webhookSecret };
}

it('logs no token, key, secret, password or message text at the default level, and ties lines to their request', async () => {
  captured = captureLog();
  const signUp = await fetch(`${auth.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: api.url },
    body: JSON.stringify({ email: 'ann@example.com', password: PASSWORD, name: 'Ann' }),
  });
  expect(signUp.status).toBe(200);

  const { projectId, key, webhookSecret } = await setUpProject();
  const loaded = await call(key, 'load_clients', { platform_id: 'ann', group_id: 'sim', client_type: 99 });
  const clientId = loaded.body.clients[0].client_id as number;
  expect((await call(key, 'callback', { client_id: clientId, message: CLIENT_TEXT })).status).toBe(200);
  expect((await call(key, 'callback', { client_id: clientId, message: 'order' })).status).toBe(200);
  expect(fakeApi.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET_VALUE}`);
  // Failing calls with the key and a message's text: logged, the key redacted.
  const unknownClient = await call(key, 'callback', { client_id: 999_999, message: CLIENT_TEXT });
  expect(unknownClient.status).toBeGreaterThanOrEqual(400);
  const unknownAction = await call(key, 'no_such_action', { message: CLIENT_TEXT });
  expect(unknownAction.status).toBe(404);
  // Two messages in and two out: four signed deliveries.
  await waitFor(async () => receiver.received.length >= 4 || null, 'the webhook deliveries');
  expect(receiver.received.some((r) => r.body.includes(CLIENT_TEXT))).toBe(true);

  const bot = fakeTg.addBot({ username: 'logs_bot' });
  const channelId = (
    await connectTgChannel(db, projectId, { token: bot.token, mode: 'webhook' }, async () => {})
  ).id;
  const tgSecret = fakeTg.bot(bot.token).webhook?.secretToken ?? '';
  expect(tgSecret).not.toBe('');
  const update = await fetch(`${api.url}/api/channels/tg/${channelId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': tgSecret },
    body: JSON.stringify({
      update_id: 1,
      message: {
        message_id: 1,
        date: 1_700_000_000,
        chat: { id: 77, type: 'private', first_name: 'Bo' },
        from: { id: 77, is_bot: false, first_name: 'Bo' },
        text: TG_TEXT,
      },
    }),
  });
  expect(update.status).toBe(200);
  await fakeTg.waitForCall((c) => c.method === 'sendMessage' && c.params.text === 'Welcome', 20_000);

  const text = captured.text();
  const planted = {
    PASSWORD,
    SECRET_VALUE,
    CLIENT_TEXT,
    TG_TEXT,
    key,
    webhookSecret,
    tgSecret,
    botToken: bot.token,
  };
  for (const [name, value] of Object.entries(planted))
    expect({ name, found: text.includes(value) }).toEqual({ name, found: false });

  // The log did capture this run: each failed call, on a line of its own request.
  const lines = captured.lines();
  const failed = lines.filter((l) => l.area === 'api' && l.level === 'info');
  expect(failed.map((l) => [l.status, l.requestId])).toEqual([
    [unknownClient.status, unknownClient.requestId],
    [404, unknownAction.requestId],
  ]);
  expect(unknownClient.requestId).not.toBe(unknownAction.requestId);
});

it('carries one request id from the HTTP request through its outgoing calls and into the jobs it queued', async () => {
  captured?.restore();
  captured = captureLog({ BLOCKBOT_LOG_LEVEL: 'debug' });
  const { key } = await setUpProject();
  const loaded = await call(key, 'load_clients', { platform_id: 'bo', group_id: 'sim', client_type: 99 });
  const before = receiver.received.length;
  const ordered = await call(key, 'callback', {
    client_id: loaded.body.clients[0].client_id,
    message: 'order',
  });
  expect(ordered.status).toBe(200);
  expect(ordered.requestId).toMatch(/^[0-9a-f-]{36}$/);
  await waitFor(async () => receiver.received.length >= before + 2 || null, 'the webhook deliveries');
  // Each delivery's line is written once its answer is back, just after the receiver has it.
  const hookHost = new URL(receiver.url).host;
  await waitFor(
    async () =>
      (captured?.lines() ?? []).filter((l) => l.host === hookHost && l.requestId === ordered.requestId)
        .length >= 2 || null,
    'the deliveries logged',
  );
  const lines = captured.lines().filter((l) => l.requestId === ordered.requestId);
  // The block's request, made while the API call ran: the request's id, no job.
  const blockRequest = lines.find((l) => l.host === new URL(fakeApi.url).host);
  expect(blockRequest).toMatchObject({ level: 'debug', method: 'POST', status: 200 });
  expect(blockRequest).not.toHaveProperty('jobId');
  // The deliveries, made by the worker's webhook job: the same id, and the job's own.
  const deliveries = lines.filter((l) => l.host === hookHost);
  expect(deliveries.length).toBeGreaterThanOrEqual(2);
  for (const line of deliveries)
    expect(line).toMatchObject({ level: 'debug', status: 200, jobId: expect.any(String) });
  // Even at debug: the host and status only, never the path, the body or the secret sent.
  expect(captured.text()).not.toContain(SECRET_VALUE);
  expect(captured.text()).not.toContain('/echo');
  expect(captured.text()).not.toContain('/hook');
});
