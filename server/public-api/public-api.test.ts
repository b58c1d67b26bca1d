import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TYPES } from '@/lib/channels/descriptors';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { createApiKey, revokeApiKey } from '@/server/projects/api-keys';
import { loadBotSchema, saveBotSchema } from '@/server/projects/bot-schema-store';
import { createProject } from '@/server/projects/project-service';
import { parseRawAnswer, rawUpload } from '@/server/testing/raw-upload';
import { waitFor } from '@/server/testing/wait-for';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { startApiServer } from './testing/api-server';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON answers
type JsonBody = Record<string, any>;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-api-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let server: Awaited<ReturnType<typeof startApiServer>>;
let db: PrismaClient;
let key: string;
let projectId: number;
let otherKey: string;

beforeAll(async () => {
  process.env.BLOCKBOT_API_RATE_LIMIT = '100000';
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  server = await startApiServer();
  const project = await createProject(db, {
    name: 'API',
    plan: 'business',
    owner: { email: 'owner@example.com' },
  });
  projectId = project.id;
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { id: 1, kind: 'start', text: 'Welcome', trigger: { alternatives: '' } },
      {
        id: 2,
        kind: 'start',
        name: 'Paid',
        text: 'Payment of #{amount} received',
        trigger: { alternatives: 'payment_ok' },
      },
      { id: 3, kind: 'state', name: 'Menu', text: 'Menu for #{name}' },
    ],
    arrows: [],
  });
  key = (await createApiKey(db, projectId, { name: 'main', canDeleteClients: false })).key;
  const other = await createProject(db, { name: 'Other' });
  otherKey = (await createApiKey(db, other.id, { name: 'other' })).key;
});
afterAll(async () => {
  await server?.close();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function call(
  action: string,
  params: Record<string, unknown> = {},
  options: { method?: string; apiKey?: string; form?: boolean } = {},
) {
  const method = options.method ?? 'POST';
  const url = new URL(`${server.url}/api/${options.apiKey ?? key}/${action}`);
  let body: string | undefined;
  const headers: Record<string, string> = {};
  if (method === 'GET') {
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
  } else if (options.form) {
    body = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else {
    body = JSON.stringify(params);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(url, { method, headers, body });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as JsonBody,
  };
}

async function newClient(platformId: string) {
  const { body } = await call('load_clients', { platform_id: platformId, group_id: 'sim', client_type: 99 });
  return body.clients[0].client_id as number;
}

describe('authentication and errors', () => {
  it('answers unknown and revoked keys alike with 401, and never echoes the key', async () => {
    const unknown = await call('get_messages', {}, { method: 'GET', apiKey: 'bb_nope' });
    const revoked = await createApiKey(db, projectId, { name: 'old' });
    await revokeApiKey(db, projectId, revoked.id);
    const gone = await call('get_messages', {}, { method: 'GET', apiKey: revoked.key });
    expect(unknown.status).toBe(401);
    // Keys live on the project's API keys tab (issue 29 item 15).
    expect(unknown.body.message).toContain('API keys tab of your project');
    expect(gone).toMatchObject({ status: 401, body: unknown.body });
    expect(JSON.stringify(gone.body)).not.toContain(revoked.key);
    expect(gone.headers.get('cache-control')).toBe('no-store');
    expect(gone.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('lists the valid actions for an unknown one, names missing and mistyped parameters, refuses big bodies', async () => {
    const unknown = await call('frobnicate');
    expect(unknown).toMatchObject({ status: 404, body: { status: 'error', error: 'unknown_action' } });
    expect(unknown.body.message).toContain('get_variables');
    const missing = await call('get_variables', {}, { method: 'GET' });
    expect(missing).toMatchObject({
      status: 400,
      body: { error: 'missing_parameter', message: 'client_id is required.' },
    });
    const mistyped = await call('get_variables', { client_id: 'abc' }, { method: 'GET' });
    expect(mistyped).toMatchObject({ status: 400, body: { error: 'invalid_parameter' } });
    expect(mistyped.body.message).toContain('client_id');
    const big = await call('save_variables', { client_id: 1, variables: { x: 'y'.repeat(2 * 1024 * 1024) } });
    expect(big).toMatchObject({ status: 413, body: { error: 'body_too_large' } });
    const put = await call('get_messages', {}, { method: 'PUT' });
    expect(put.status).toBe(405);
  });

  it('refuses a body over the cap that comes without a length (chunked), and still answers', async () => {
    const chunk = new TextEncoder().encode(`{"client_id":1,"variables":{"x":"${'y'.repeat(256 * 1024)}`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Five chunks of 256 KiB pass the 1 MiB cap; the stream never ends on its own.
        if (sent++ < 5) controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${server.url}/api/${key}/save_variables`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ status: 'error', error: 'body_too_large' });
    expect(response.headers.get('connection')).toBe('close');
  });

  it('answers a 50 MB body with a Content-Length 413 JSON that a client reads after sending it all (issue 29 item 18)', async () => {
    // The production server's own path: the first call loads the API's module, later ones skip Next.js.
    await call('get_messages', {}, { method: 'GET' });
    // A client such as curl or Python's requests: it sends the whole body, then reads the answer.
    // Before the fix: EPIPE or ECONNRESET after a few MB, the answer lost with the connection.
    const response = await rawUpload(`${server.url}/api/${key}/save_variables`, 50 * 1024 * 1024);
    const { head, status, body } = parseRawAnswer(response);
    expect(status).toBe(413);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(body).toMatchObject({ status: 'error', error: 'body_too_large' });
  });

  it('answers a malformed key exactly as a well-formed unknown one, headers included (issue 52, item 20)', async () => {
    // `npm start` serves every key itself (production-entry.ts), so a prober cannot tell which are well formed.
    const malformed = await call('get_messages', {}, { method: 'GET', apiKey: 'not-a-key' });
    const unknown = await call('get_messages', {}, { method: 'GET', apiKey: 'bb_nope' });
    expect(malformed).toMatchObject({ status: 401, body: unknown.body });
    expect(malformed.headers.get('cache-control')).toBe('no-store');
    // The date and the request's own id (server/log) differ between any two answers.
    const headers = (h: Headers) =>
      [...h.entries()].filter(([name]) => name !== 'date' && name !== 'x-request-id');
    expect(headers(malformed.headers)).toEqual(headers(unknown.headers));
    const encoded = await call('get_messages', {}, { method: 'GET', apiKey: encodeURIComponent(`${key} `) });
    expect(encoded.status).toBe(401);
  });

  it('reads multipart form bodies, whatever the case of their boundary', async () => {
    const id = await newClient('multipart');
    const boundary = 'BlockbotBoundaryXyZ';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="client_id"',
      '',
      String(id),
      `--${boundary}`,
      'Content-Disposition: form-data; name="variables"',
      '',
      '{"source":"multipart"}',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const saved = await fetch(`${server.url}/api/${key}/save_variables`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(saved.status).toBe(200);
    expect((await call('get_variables', { client_id: id }, { method: 'GET' })).body.variables).toEqual({
      source: 'multipart',
    });
    const broken = await fetch(`${server.url}/api/${key}/save_variables`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=OtherBoundary' },
      body,
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({
      error: 'invalid_body',
      message: expect.stringContaining('boundary'),
    });
  });

  it('takes structured parameters as JSON text in a query string, and names them when the text is not JSON', async () => {
    const clients = JSON.stringify([{ platform_id: 'json-query', group_id: 'sim', client_type: 99 }]);
    const loaded = await call('load_clients', { clients }, { method: 'GET' });
    expect(loaded).toMatchObject({ status: 200, body: { clients: [{ platform_id: 'json-query' }] } });
    const id = loaded.body.clients[0].client_id;
    const broken = await call(
      'message',
      { client_id: id, message: 'hi', buttons: '[not json' },
      { method: 'GET' },
    );
    expect(broken).toMatchObject({ status: 400, body: { error: 'invalid_parameter' } });
    expect(broken.body.message).toContain('buttons');
  });

  it("keeps projects apart: a key of another project gets 404 for this project's clients", async () => {
    const clientId = await newClient('isolated');
    for (const [action, method] of [
      ['get_variables', 'GET'],
      ['get_history', 'GET'],
      ['clear_history', 'GET'],
      ['message', 'POST'],
      ['callback', 'POST'],
      ['set_order_state', 'POST'],
      ['assign_to_user', 'GET'],
      ['save_variables', 'POST'],
    ] as const) {
      const result = await call(
        action,
        { client_id: clientId, message: 'x', state_id: 1, variables: { a: 1 } },
        { method, apiKey: otherKey },
      );
      expect([action, result.status, result.body.error]).toEqual([action, 404, 'not_found']);
    }
    const list = await call('get_clients', {}, { apiKey: otherKey });
    expect(list.body.clients).toEqual([]);
    // Refused before anything was written: no message came in or went out, no variable was kept.
    expect(await db.message.count({ where: { clientId } })).toBe(0);
    expect(await db.dealVariable.count({ where: { deal: { clientId } } })).toBe(0);
  });
});

describe('clients and variables', () => {
  it('loads clients; telephony gets an empty group_id; chat-app numbers with or without the suffix are one client', async () => {
    const loaded = await call('load_clients', {
      clients: [
        { platform_id: '79001112233', group_id: '42', client_type: 6 },
        { platform_id: '79001112233@c.us', group_id: '42', client_type: 6 },
        { platform_id: '+1 555 0100', group_id: 'ignored', client_type: 13 },
        { platform_id: '0079001112233', group_id: '42', client_type: 6 },
        { platform_id: '+44 (0)20 7946 0958', group_id: 'line-1', client_type: 13 },
        { platform_id: '442079460958', group_id: 'line-2', client_type: 13 },
      ],
    });
    expect(loaded.status).toBe(200);
    const [a, b, phone, c, uk, ukAgain] = loaded.body.clients;
    expect(a.client_id).toBe(b.client_id);
    expect(c.client_id).toBe(a.client_id);
    // Phone channels store E.164 without the plus, one client per number whatever the line.
    expect([a.platform_id, uk.platform_id, ukAgain.client_id]).toEqual([
      '79001112233',
      '442079460958',
      uk.client_id,
    ]);
    expect((await db.client.findUniqueOrThrow({ where: { id: phone.client_id } })).groupId).toBe('');
    expect(
      (await call('chatapp_client_id', { phone: '+7 900 111-22-33' }, { method: 'GET' })).body.client_id,
    ).toBe(a.client_id);
    expect((await call('chatapp_client_id', { phone: '000' }, { method: 'GET' })).status).toBe(404);
  });

  it('saves deal variables by default and profile variables with client., in bulk too, and reads them back', async () => {
    const one = await newClient('vars-1');
    const two = await newClient('vars-2');
    expect(
      (
        await call('save_variables', {
          client_id: one,
          variables: { order: 'A-1', 'client.email': 'Ann@Example.com', n: 5 },
        })
      ).status,
    ).toBe(200);
    expect(
      (await call('save_variables', { clients: [one, two], variables: { campaign: 'spring' } })).status,
    ).toBe(200);
    const read = await call('get_variables', { client_id: one }, { method: 'GET' });
    expect(read.body).toEqual({
      status: 'success',
      variables: { order: 'A-1', n: '5', campaign: 'spring', 'client.email': 'Ann@Example.com' },
    });
    expect((await call('get_variables', { client_id: two }, { method: 'GET' })).body.variables).toEqual({
      campaign: 'spring',
    });
    expect(
      (await call('find_client_id_by_email', { email: 'ann@example.com' }, { method: 'GET' })).body.client_id,
    ).toBe(one);
    expect(
      (await call('find_client_id_by_var', { var: 'order', val: 'A-1' }, { method: 'GET' })).body.client_id,
    ).toBe(one);
    expect(
      (await call('find_client_id_by_var', { var: 'order', val: 'nope' }, { method: 'GET' })).status,
    ).toBe(404);
    const tooLong = await call('save_variables', {
      client_id: one,
      variables: { ok: '1', ['x'.repeat(501)]: 'v' },
    });
    expect(tooLong.status).toBe(400);
    expect(
      (await call('get_variables', { client_id: one }, { method: 'GET' })).body.variables.ok,
    ).toBeUndefined();
  });

  it('finds clients by phone in variables and by platform ids', async () => {
    const id = await newClient('phone-holder');
    await call('save_variables', { client_id: id, variables: { 'client.phone': '+44 (20) 7946-0018' } });
    expect(
      (await call('find_client_id_by_phone', { phone: '442079460018' }, { method: 'GET' })).body.client_id,
    ).toBe(id);
    const found = await call('find_client_id_by_platform_id', { platform_ids: ['phone-holder', 'nobody'] });
    expect(found.body.clients).toEqual([{ platform_id: 'phone-holder', client_id: id }]);
  });

  it('online_chat_client_id finds a widget dialog by its recipient and sets the name and tag it is given', async () => {
    const widget = CLIENT_TYPES.widget;
    const loaded = await call('load_clients', {
      clients: [
        { platform_id: 'w-api-dialog', group_id: 'wk_api', client_type: widget, name: 'Visitor' },
        // Another messenger's client with a recipient's spelling is no widget dialog.
        { platform_id: 'w-not-a-dialog', group_id: 'shop_bot', client_type: CLIENT_TYPES.tg },
      ],
    });
    const dialog = loaded.body.clients[0].client_id;
    const profile = () =>
      db.client.findUniqueOrThrow({ where: { id: dialog }, select: { name: true, tag: true } });
    const find = (params: Record<string, string>, apiKey = key) =>
      call('online_chat_client_id', params, { method: 'GET', apiKey });
    expect((await find({ recipient: 'w-api-dialog' })).body).toEqual({
      status: 'success',
      client_id: dialog,
    });
    expect(await profile()).toEqual({ name: 'Visitor', tag: '' });
    await find({ recipient: 'w-api-dialog', tag: 'landing' });
    expect(await profile()).toEqual({ name: 'Visitor', tag: 'landing' });
    await find({ recipient: 'w-api-dialog', name: 'Ann' });
    expect(await profile()).toEqual({ name: 'Ann', tag: 'landing' });
    const notFound = { status: 404, body: { status: 'error', error: 'client_not_found' } };
    expect(await find({ recipient: 'w-not-a-dialog' })).toMatchObject(notFound);
    expect(await find({ recipient: 'w-api-dialog' }, otherKey)).toMatchObject(notFound);
  });

  it('pages clients (limit at most 500) and deletes only with a key that may', async () => {
    const ids = [await newClient('page-1'), await newClient('page-2')];
    const page = await call('get_clients', { offset: 0, limit: 1 });
    expect(page.body.clients).toHaveLength(1);
    expect((await call('get_clients', { limit: 501 })).status).toBe(400);
    const refused = await call('get_clients', { client_ids: ids });
    expect(refused).toMatchObject({ status: 403, body: { error: 'permission_required' } });
    const deleter = (await createApiKey(db, projectId, { name: 'deleter', canDeleteClients: true })).key;
    expect(
      (
        await call(
          'get_clients',
          { client_ids: Array.from({ length: 501 }, (_, i) => i + 1) },
          { apiKey: deleter },
        )
      ).status,
    ).toBe(400);
    const deleted = await call('get_clients', { client_ids: ids }, { apiKey: deleter });
    expect(deleted.body.deleted).toBe(2);
  });
});

describe('starting the bot and sending', () => {
  it('callback routes a system message, saves extra parameters, and finds the client by e-mail', async () => {
    const id = await newClient('payer');
    await call('save_variables', { client_id: id, variables: { 'client.email': 'payer@example.com' } });
    const result = await call('callback', {
      client_email: 'payer@example.com',
      message: 'payment_ok',
      amount: '49.90',
    });
    expect(result).toMatchObject({ status: 200, body: { status: 'success', client_id: id, message_id: 2 } });
    const history = await call('get_history', { client_id: id }, { method: 'GET' });
    expect(
      history.body.result.map((m: { message: string; is_input: number; message_from_outside: number }) => [
        m.message,
        m.is_input,
        m.message_from_outside,
      ]),
    ).toEqual([
      ['payment_ok', 1, 1],
      ['Payment of 49.90 received', 0, 1],
    ]);
    expect((await call('clear_history', { client_id: id }, { method: 'GET' })).body.deleted).toBe(2);
  });

  it('tg_callback reaches a client of a connected bot, its username in any case; an unknown bot is a 404 naming it (issue 30)', async () => {
    const bot = await db.channel.create({
      data: { projectId, kind: 'tg', clientType: 1, groupId: 'Shop_Test_Bot' },
    });
    const first = await call('tg_callback', { user_id: '4242', group_id: 'shop_test_bot', message: 'paid' });
    const second = await call('tg_callback', { user_id: '4242', group_id: 'SHOP_TEST_BOT', message: 'paid' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.client_id).toBe(first.body.client_id);
    expect(await db.client.findUniqueOrThrow({ where: { id: first.body.client_id } })).toMatchObject({
      groupId: 'Shop_Test_Bot',
      platformId: '4242',
    });
    const clients = () => db.client.count({ where: { projectId, clientType: 1 } });
    const before = await clients();
    const unknown = await call('tg_callback', { user_id: '4242', group_id: 'stranger_bot', message: 'paid' });
    expect(unknown).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: expect.stringContaining('"stranger_bot" is connected') },
    });
    expect(unknown.body.message).toMatch(/^group_id: /);
    expect(await clients()).toBe(before);
    // load_clients stores the bot's own spelling; filters by group_id take any case.
    const loaded = await call('load_clients', {
      platform_id: '4242',
      group_id: 'shop_TEST_bot',
      client_type: 1,
    });
    expect(loaded.body.clients[0].client_id).toBe(first.body.client_id);
    const listed = await call('subscribers', { group: 'SHOP_test_BOT', client_type: 1 });
    expect(listed.body.clients.map((c: { client_id: number }) => c.client_id)).toContain(
      first.body.client_id,
    );
    const located = await call('callback', {
      value_user_id: 'uid',
      uid: '4242',
      value_group_id: 'bot',
      bot: 'shop_test_BOT',
      message: 'located',
    });
    expect(located).toMatchObject({ status: 200, body: { client_id: first.body.client_id } });
    await db.channel.delete({ where: { id: bot.id } });
  });

  it('message sends a text or a file, or runs a block with message_id', async () => {
    const id = await newClient('receiver');
    expect((await call('message', { client_id: id })).status).toBe(400);
    expect(
      (await call('message', { client_id: id, message: 'Hello', buttons: [{ text: 'OK' }] })).status,
    ).toBe(200);
    expect(
      (
        await call('message', {
          client_id: id,
          attachment_type: 'image',
          attachment_url: 'https://cdn.example.com/a.png',
        })
      ).status,
    ).toBe(200);
    const block = await call('message', { client_id: id, message_id: 3 });
    expect(block.body).toMatchObject({ message_id: 3, sent: 1 });
    expect((await call('message', { client_id: id, message_id: 99 })).status).toBe(404);
    const texts = (await call('get_history', { client_id: id }, { method: 'GET' })).body.result.map(
      (m: { message: string }) => m.message,
    );
    expect(texts).toEqual(['Hello', '', 'Menu for ']);
  });

  it('universal-webhook mode: value_client_id names the field that holds the id, in GET and in form POST', async () => {
    const id = await newClient('universal');
    const viaGet = await call(
      'get_variables',
      { value_client_id: 'lead_id', lead_id: id },
      { method: 'GET' },
    );
    expect(viaGet).toMatchObject({ status: 200, body: { variables: {} } });
    const viaForm = await call(
      'save_variables',
      { value_client_id: 'crm_contact', crm_contact: id, variables: '{"stage":"won"}' },
      { form: true },
    );
    expect(viaForm.status).toBe(200);
    expect((await call('get_variables', { client_id: id }, { method: 'GET' })).body.variables).toEqual({
      stage: 'won',
    });
    const wrong = await call('get_variables', { value_client_id: 'missing_field' }, { method: 'GET' });
    expect(wrong).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('"missing_field"') },
    });
  });
});

describe('universal-webhook mode for every client method', () => {
  const clientMethods: [string, Record<string, unknown>][] = [
    ['get_variables', {}],
    ['save_variables', { variables: '{"via":"universal"}' }],
    ['get_history', {}],
    ['clear_history', {}],
    ['message', { message: 'hi' }],
    ['callback', { message: 'payment_ok' }],
    ['set_order_state', {}],
    ['assign_to_user', {}],
  ];
  it.each(clientMethods)('%s accepts GET and POST with value_client_id', async (action, extra) => {
    const id = await newClient(`universal-${action}`);
    const state = await db.crmState.findFirstOrThrow({ where: { projectId } });
    const params = {
      ...extra,
      ...(action === 'set_order_state' ? { state_id: state.id } : {}),
      value_client_id: 'external_id',
      external_id: id,
    };
    for (const method of ['GET', 'POST'] as const) {
      const result = await call(action, params, { method, form: method === 'POST' });
      expect([action, method, result.status]).toEqual([action, method, 200]);
    }
  });
});

describe('CRM, lists, members, project info', () => {
  it('moves deals to states, adds to and removes from lists, assigns round-robin', async () => {
    const id = await newClient('crm');
    const state = await db.crmState.findFirstOrThrow({ where: { projectId, name: 'In progress' } });
    expect((await call('set_order_state', { client_id: id, state_id: state.id })).body.state_id).toBe(
      state.id,
    );
    expect((await call('set_order_state', { client_id: id, state_id: 999999 })).status).toBe(404);
    const list = await db.clientList.create({ data: { projectId, name: 'VIP' } });
    expect((await call('add_to_list', { list_id: list.id, clients: [id] })).body.added).toBe(1);
    expect(
      (await call('get_clients', { list: list.id })).body.clients.map(
        (c: { client_id: number }) => c.client_id,
      ),
    ).toEqual([id]);
    expect((await call('remove_from_list', { list_id: list.id, clients: [id] })).body.removed).toBe(1);
    expect((await call('add_to_list', { list_id: 999999, clients: [id] })).status).toBe(404);
    await db.projectMember.create({ data: { projectId, email: 'agent@example.com', role: 'operator' } });
    const first = await call('assign_to_user', { client_id: id }, { method: 'GET' });
    const second = await call('assign_to_user', { client_id: id }, { method: 'GET' });
    expect(new Set([first.body.email, second.body.email])).toEqual(
      new Set(['owner@example.com', 'agent@example.com']),
    );
    expect(
      (await call('assign_to_user', { client_id: id, 'e-mail': 'agent@example.com' }, { method: 'GET' })).body
        .email,
    ).toBe('agent@example.com');
  });

  it("lists the published bot's blocks and connected channels", async () => {
    // A block added to the draft is not listed until it is published.
    const { schema } = await loadBotSchema(db, projectId);
    await saveBotSchema(db, projectId, {
      ...schema,
      blocks: [...schema.blocks, { id: 4, kind: 'state', name: 'Draft only', text: 'Soon' }],
    });
    const blocks = await call('get_messages', {}, { method: 'GET' });
    expect(blocks.body.messages.map((b: { id: number; name: string }) => [b.id, b.name])).toEqual([
      [1, ''],
      [2, 'Paid'],
      [3, 'Menu'],
    ]);
    await db.channel.create({
      data: { projectId, kind: 'chatapp', clientType: 6, groupId: '42', status: 2 },
    });
    const channels = await call('connected_channels', {}, { method: 'GET' });
    expect(channels.body.channels).toEqual({
      chatapp: [{ group_id: '42', client_type: 6, name: '', status: 2 }],
    });
  });
});

describe('the outbound webhook', () => {
  it('POSTs every received and sent message once, signed with the project secret', async () => {
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
    const project = await db.project.update({
      where: { id: projectId },
      data: {
        webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        webhookTestConversations: true,
      },
    });
    const { startWorkers } = await import('@/server/jobs/jobs');
    const { jobDefinitions } = await import('@/server/jobs/registry');
    await startWorkers(jobDefinitions);
    const id = await newClient('hooked');
    await call('callback', { client_id: id, message: 'payment_ok', amount: '5' });
    // Each delivery is recorded after its answer came: wait for both records, not only both requests.
    const log = await waitFor(async () => {
      const rows = await db.webhookDelivery.findMany({ where: { projectId } });
      return rows.length >= 2 && rows;
    }, 'both webhook deliveries recorded');
    await db.project.update({ where: { id: projectId }, data: { webhookUrl: null } });
    receiver.close();
    expect(received).toHaveLength(2);
    const hook = new Webhook(project.webhookSecret);
    received.sort((a, b) => JSON.parse(b.body).is_input - JSON.parse(a.body).is_input);
    const payloads = received.map(
      (r) => hook.verify(r.body, r.headers as Record<string, string>) as JsonBody,
    );
    expect(payloads.map((p) => [p.message, p.is_input])).toEqual([
      ['payment_ok', 1],
      ['Payment of 5 received', 0],
    ]);
    expect(payloads[0]).toMatchObject({
      project_id: projectId,
      client: { id, recepient: 'hooked', client_type: 99 },
    });
    expect(log.map((l) => l.status)).toEqual([200, 200]);
  });
});
