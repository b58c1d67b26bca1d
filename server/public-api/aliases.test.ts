import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import type { ChannelAdapter } from '@/server/channels/channel-adapter';
import { registerChannel } from '@/server/channels/registry';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { createApiKey } from '@/server/projects/api-keys';
import { createProject } from '@/server/projects/project-service';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { actionAliases } from './actions/aliases';
import { buildOpenApiDocument } from './openapi';
import { startApiServer } from './testing/api-server';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-aliases-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let server: Awaited<ReturnType<typeof startApiServer>>;
let db: PrismaClient;
let key: string;
let projectId: number;
/** What the messengers were asked, as their channel adapters saw it. */
const asked: { clientType: number; fn: string; args: Record<string, unknown> }[] = [];
const sent: { platformId: string; text: string }[] = [];

function recordingChannel(clientType: number, answer: unknown): ChannelAdapter {
  return {
    clientType,
    async send(client, message) {
      sent.push({ platformId: client.platformId, text: message.text });
      return { delivered: true };
    },
    async call(_projectId, fn, args) {
      asked.push({ clientType, fn, args });
      return answer;
    },
  };
}

beforeAll(async () => {
  process.env.BLOCKBOT_API_RATE_LIMIT = '100000';
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  server = await startApiServer();
  projectId = (await createProject(db, { name: 'Aliases', owner: { email: 'owner@example.com' } })).id;
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text: 'Welcome', trigger: { alternatives: '' } }],
    arrows: [],
  });
  key = (await createApiKey(db, projectId, { name: 'main' })).key;
  await db.channel.createMany({
    data: [
      { projectId, kind: 'chatapp', clientType: 6, groupId: '42' },
      { projectId, kind: 'social', clientType: 10, groupId: 'our_shop' },
    ],
  });
  registerChannel(recordingChannel(6, { exists: true }));
  registerChannel(recordingChannel(10, { subscribed: true }));
});
afterAll(async () => {
  await server?.close();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function call(action: string, params: Record<string, string>, method = 'POST') {
  const url = new URL(`${server.url}/api/${key}/${action}`);
  if (method === 'GET') for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: method === 'GET' ? undefined : JSON.stringify(params),
  });
  return { status: response.status, body: await response.json() };
}

describe('the messenger-named actions of the commercial platform', () => {
  it('whatsapp_callback starts the chat-app bot like chatapp_callback', async () => {
    const params = { bot_id: '42', message: 'hi', city: 'Oslo' };
    const alias = await call('whatsapp_callback', { ...params, phone: '+7 900 000-00-01' });
    const target = await call('chatapp_callback', { ...params, phone: '+7 900 000-00-04' });
    expect(alias).toMatchObject({ status: 200, body: { status: 'success', sent: 1 } });
    expect({ ...alias.body, client_id: 0 }).toEqual({ ...target.body, client_id: 0 });
    const client = await db.client.findFirstOrThrow({
      where: { projectId, platformId: '79000000001', clientType: 6, groupId: '42' },
      include: { deals: { include: { variables: true } } },
    });
    expect(alias.body.client_id).toBe(client.id);
    expect(client.deals[0].variables.map((v) => [v.name, v.value])).toContainEqual(['city', 'Oslo']);
  });

  it('whatsapp_message with whatsapp_bot_id sends like chatapp_message with chatapp_bot_id', async () => {
    const alias = await call('whatsapp_message', {
      whatsapp_bot_id: '42',
      phone: '79000000002',
      message: 'Your order is ready',
    });
    const target = await call('chatapp_message', {
      chatapp_bot_id: '42',
      phone: '79000000002',
      message: 'Your order is ready',
    });
    expect(alias).toMatchObject({ status: 200, body: { status: 'success', sent: 1 } });
    expect(alias).toEqual(target);
    expect(sent.filter((s) => s.platformId === '79000000002').map((s) => s.text)).toEqual([
      'Your order is ready',
      'Your order is ready',
    ]);
    // The old name also works beside the interface's action name, and a wrong bot is named as such.
    const old = await call('chatapp_message', { whatsapp_bot_id: '7', phone: '79000000002', message: 'x' });
    expect(old).toMatchObject({ status: 404, body: { error: 'channel_not_found' } });
    expect(old.body.message).toContain('chat-app bot 7');
    const none = await call('whatsapp_message', { phone: '79000000002', message: 'x' });
    expect(none).toMatchObject({ status: 400, body: { error: 'missing_parameter' } });
    expect(none.body.message).toContain('chatapp_bot_id is required');
  });

  it('whatsapp_client_id finds the client like chatapp_client_id, 404 included', async () => {
    const found = await call('whatsapp_client_id', { phone: '+7 900 000-00-01' }, 'GET');
    expect(found).toEqual(await call('chatapp_client_id', { phone: '+7 900 000-00-01' }, 'GET'));
    expect(found.body.client_id).toEqual(expect.any(Number));
    const missing = await call('whatsapp_client_id', { phone: '000' }, 'GET');
    expect(missing.status).toBe(404);
    expect(missing).toEqual(await call('chatapp_client_id', { phone: '000' }, 'GET'));
  });

  it('check_whatsapp and check_insta_subscription ask the messengers like their interface actions', async () => {
    asked.length = 0;
    const whatsapp = await call('check_whatsapp', { phone: '+7 900 000-00-03' });
    expect(whatsapp).toEqual({ status: 200, body: { status: 'success', exists: true } });
    expect(whatsapp).toEqual(await call('check_chatapp', { phone: '+7 900 000-00-03' }));
    const params = { user_name: 'ann.smith', login: 'our_shop' };
    const insta = await call('check_insta_subscription', params, 'GET');
    expect(insta).toEqual({ status: 200, body: { status: 'success', subscribed: true } });
    expect(insta).toEqual(await call('check_social_subscription', params, 'GET'));
    expect(asked.map((a) => [a.clientType, a.fn])).toEqual([
      [6, 'check_chatapp'],
      [6, 'check_chatapp'],
      [10, 'check_social_subscription'],
      [10, 'check_social_subscription'],
    ]);
  });

  it('an unknown action lists the interface names only', async () => {
    const unknown = await call('whatsapp_frobnicate', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('chatapp_message');
    expect(unknown.body.message).not.toContain('whatsapp_message');
  });
});

describe('the OpenAPI document', () => {
  it('lists every alias as a deprecated operation that names its interface action', () => {
    const doc = buildOpenApiDocument('https://bots.example.com');
    const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;
    for (const alias of actionAliases) {
      const item = paths[`/api/{api_key}/${alias.name}`];
      for (const method of ['get', 'post']) {
        expect(item[method], `${alias.name} ${method}`).toMatchObject({
          deprecated: true,
          operationId: `${alias.name}_${method}`,
          tags: ['Deprecated aliases'],
        });
        expect(item[method].description).toContain(`Deprecated alias of \`${alias.target.name}\``);
      }
      expect(paths[`/api/{api_key}/${alias.target.name}`].post.deprecated).toBeUndefined();
    }
    expect(paths['/api/{api_key}/whatsapp_message'].post.description).toContain(
      '`whatsapp_bot_id` is accepted in place of `chatapp_bot_id`',
    );
  });
});
