import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeWaha, startFakeWaha } from './fake-waha';

const HMAC_KEY = 'webhook-secret';

interface Post {
  headers: http.IncomingHttpHeaders;
  valid: boolean;
  body: { event: string; payload: Record<string, unknown> } & Record<string, unknown>;
}

/** A bot's webhook: checks X-Webhook-Hmac against its own HMAC-SHA512 of the raw body. */
async function startReceiver(key = HMAC_KEY) {
  const posts: Post[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const given = req.headers['x-webhook-hmac'];
      const expected = Buffer.from(createHmac('sha512', key).update(raw).digest('hex'));
      const valid =
        typeof given === 'string' &&
        Buffer.byteLength(given) === expected.length &&
        timingSafeEqual(Buffer.from(given), expected);
      let body: Post['body'];
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = { event: 'not-json', payload: {} };
      }
      posts.push({ headers: req.headers, valid, body });
      res.writeHead(valid ? 200 : 401, { 'content-type': 'text/plain' });
      res.end(valid ? 'ok' : 'bad signature');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/waha`,
    posts,
    events: (event: string) => posts.filter((p) => p.body.event === event),
    statuses: () => posts.filter((p) => p.body.event === 'session.status').map((p) => p.body.payload.status),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

let fake: FakeWaha;
let receiver: Receiver;
let seq = 0;

async function api(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${fake.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      'x-api-key': fake.apiKey,
      'content-type': 'application/json',
      accept: 'application/json',
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

function webhook(events: string[], key: string | null = HMAC_KEY) {
  return { url: receiver.url, events, hmac: key ? { key } : null };
}

/** A fresh session name per test: the fake and the receiver are shared. */
function fresh() {
  seq += 1;
  return `s${seq}`;
}

async function createSession(events = ['*'], extra: Record<string, unknown> = {}) {
  const name = fresh();
  const res = await api('/api/sessions', {
    body: { name, config: { webhooks: [webhook(events)], metadata: { tenant: 't1' } }, ...extra },
  });
  expect(res.status).toBe(201);
  await fake.idle();
  return name;
}

async function workingSession(events = ['*']) {
  const name = await createSession(events);
  await fake.pair(name, '34600000001', 'Shop');
  return name;
}

beforeAll(async () => {
  fake = await startFakeWaha({ apiKey: 'test-key' });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await fake.idle();
  await receiver.close();
});

describe('auth and routing', () => {
  it('answers 401 without the X-Api-Key or with a wrong one', async () => {
    const missing = await fetch(`${fake.url}/api/sessions/x`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ message: 'Unauthorized', statusCode: 401 });
    const wrong = await api('/api/sessions/x', { headers: { 'x-api-key': 'nope' } });
    expect(wrong).toEqual({ status: 401, body: { message: 'Unauthorized', statusCode: 401 } });
  });

  it('answers NestJS 404s for unknown routes and sessions', async () => {
    expect(await api('/api/nope')).toEqual({
      status: 404,
      body: { statusCode: 404, message: 'Cannot GET /api/nope', error: 'Not Found' },
    });
    expect(await api('/api/sessions/ghost')).toEqual({
      status: 404,
      body: { statusCode: 404, message: 'Session "ghost" not found', error: 'Not Found' },
    });
    expect((await api('/api/sessions/ghost/start', { body: {} })).status).toBe(404);
  });

  it('records every call and tells onCall listeners', async () => {
    const seen: string[] = [];
    const stop = fake.onCall((call) => seen.push(`${call.method} ${call.path} ${call.status}`));
    await api('/api/contacts/check-exists?phone=1&session=ghost');
    stop();
    await api('/api/nope');
    expect(seen).toEqual(['GET /api/contacts/check-exists 404']);
    const last = fake.calls.at(-2);
    expect(last?.query).toEqual({ phone: '1', session: 'ghost' });
  });
});

describe('validation (400)', () => {
  it('lists class-validator messages for a bad session body', async () => {
    const res = await api('/api/sessions', {
      body: { name: fresh(), config: { webhooks: [{ url: 'not a url', events: ['message'] }] } },
    });
    expect(res).toEqual({
      status: 400,
      body: {
        statusCode: 400,
        message: ['config.webhooks.0.url must be a URL address'],
        error: 'Bad Request',
      },
    });
    const events = await api('/api/sessions', {
      body: { name: fresh(), config: { webhooks: [{ url: receiver.url, events: 'message' }] } },
    });
    expect(events.status).toBe(400);
    expect(events.body.message).toEqual(['config.webhooks.0.events must be an array']);
  });

  it('rejects bad chat ids, too long texts and a missing phone', async () => {
    const name = await workingSession();
    const badChat = await api('/api/sendText', { body: { session: name, chatId: '34600', text: 'hi' } });
    expect(badChat.status).toBe(400);
    expect(badChat.body.message[0]).toMatch(/^chatId /);
    const long = await api('/api/sendText', {
      body: { session: name, chatId: '1@c.us', text: 'x'.repeat(65537) },
    });
    expect(long.status).toBe(400);
    expect(long.body.message).toEqual(['text must be shorter than or equal to 65536 characters']);
    const noPhone = await api(`/api/contacts/check-exists?session=${name}`);
    expect(noPhone.status).toBe(400);
    expect(noPhone.body.error).toBe('Bad Request');
    expect(fake.sent.filter((m) => m.session === name)).toEqual([]);
  });
});

describe('422s', () => {
  it('refuses a second session with the same name', async () => {
    const name = await createSession();
    expect(await api('/api/sessions', { body: { name } })).toEqual({
      status: 422,
      body: {
        statusCode: 422,
        message: `Session '${name}' already exists. Use PUT to update it.`,
        error: 'Unprocessable Entity',
      },
    });
  });

  it('answers the status 422 when the session is not WORKING, and for a QR once paired', async () => {
    const name = await createSession();
    const notWorking = {
      error: 'Session status is not as expected. Try again later or restart the session',
      session: name,
      status: 'SCAN_QR_CODE',
      expected: ['WORKING'],
    };
    expect(await api('/api/sendText', { body: { session: name, chatId: '1@c.us', text: 'hi' } })).toEqual({
      status: 422,
      body: notWorking,
    });
    expect(await api('/api/startTyping', { body: { session: name, chatId: '1@c.us' } })).toEqual({
      status: 422,
      body: notWorking,
    });
    await fake.pair(name, '34600000001');
    expect(await api(`/api/${name}/auth/qr?format=raw`)).toEqual({
      status: 422,
      body: { ...notWorking, status: 'WORKING', expected: ['SCAN_QR_CODE'] },
    });
  });

  it('refuses media sends on the CORE tier and accepts them on PLUS', async () => {
    const core = await startFakeWaha({ tier: 'CORE' });
    try {
      await fetch(`${core.url}/api/sessions`, {
        method: 'POST',
        headers: { 'x-api-key': core.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'default' }),
      });
      await core.idle();
      await core.pair('default', '111');
      const res = await fetch(`${core.url}/api/sendImage`, {
        method: 'POST',
        headers: { 'x-api-key': core.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          session: 'default',
          chatId: '2@c.us',
          file: { url: 'https://x.test/a.png', mimetype: 'image/png' },
        }),
      });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({
        statusCode: 422,
        message:
          'The feature is available only in Plus version. Check this out: https://waha.devlike.pro/docs/how-to/plus-version',
        error: 'Unprocessable Entity',
      });
      expect(core.sent).toEqual([]);
    } finally {
      await core.close();
    }
    const name = await workingSession();
    const plus = await api('/api/sendFile', {
      body: {
        session: name,
        chatId: '2@c.us',
        file: { url: 'https://x.test/a.pdf', mimetype: 'application/pdf', filename: 'a.pdf' },
        caption: 'invoice',
      },
    });
    expect(plus.status).toBe(201);
    expect(plus.body).toMatchObject({ hasMedia: true, body: 'invoice', fromMe: true, to: '2@c.us' });
    expect(fake.sent.at(-1)).toMatchObject({ kind: 'file', text: 'invoice', file: { filename: 'a.pdf' } });
  });

  it('refuses a file by link without its type, as WAHA’s RemoteFile requires it', async () => {
    const name = await workingSession();
    const sentBefore = fake.sent.length;
    const untyped = await api('/api/sendFile', {
      body: { session: name, chatId: '2@c.us', file: { url: 'https://x.test/a.pdf', filename: 'a.pdf' } },
    });
    expect(untyped).toEqual({
      status: 400,
      body: { statusCode: 400, message: ['file.mimetype should not be empty'], error: 'Bad Request' },
    });
    expect(fake.sent).toHaveLength(sentBefore);
  });
});

describe('session lifecycle', () => {
  it('creates, shows a QR, pairs, sends and acknowledges', async () => {
    const name = fresh();
    const created = await api('/api/sessions', {
      body: { name, config: { webhooks: [webhook(['*'])], metadata: { tenant: 't1' } } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name, status: 'STARTING', me: null, engine: { engine: 'WEBJS' } });
    await fake.idle();
    expect(fake.session(name)?.status).toBe('SCAN_QR_CODE');
    expect(receiver.statuses()).toEqual(['STARTING', 'SCAN_QR_CODE']);

    const image = await api(`/api/${name}/auth/qr?format=image`);
    expect(image.status).toBe(200);
    expect(image.body.mimetype).toBe('image/png');
    const png = Buffer.from(image.body.data, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const binary = await fetch(`${fake.url}/api/${name}/auth/qr`, { headers: { 'x-api-key': fake.apiKey } });
    expect(binary.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await binary.arrayBuffer())).toEqual(png);

    const raw1 = (await api(`/api/${name}/auth/qr?format=raw`)).body.value as string;
    await fake.rotateQr(name);
    const raw2 = (await api(`/api/${name}/auth/qr?format=raw`)).body.value as string;
    expect(raw1).toMatch(/^2@/);
    expect(raw2).not.toBe(raw1);
    expect(receiver.statuses()).toEqual(['STARTING', 'SCAN_QR_CODE', 'SCAN_QR_CODE']);

    await fake.pair(name, '34600000001', 'Shop');
    const working = receiver.events('session.status').at(-1)?.body;
    expect(working).toMatchObject({
      event: 'session.status',
      session: name,
      metadata: { tenant: 't1' },
      me: { id: '34600000001@c.us', pushName: 'Shop' },
      engine: 'WEBJS',
      environment: { engine: 'WEBJS', tier: 'PLUS' },
    });
    expect(working?.id).toMatch(/^evt_/);
    const statuses = ((working?.payload.statuses ?? []) as { status: string }[]).map((s) => s.status);
    expect(statuses).toEqual(['SCAN_QR_CODE', 'SCAN_QR_CODE', 'WORKING']);

    const sentRes = await api('/api/sendText', {
      body: { session: name, chatId: '34600999888@c.us', text: 'hello', reply_to: 'false_x_1' },
    });
    expect(sentRes.status).toBe(201);
    expect(sentRes.body).toMatchObject({
      from: '34600000001@c.us',
      fromMe: true,
      to: '34600999888@c.us',
      body: 'hello',
      hasMedia: false,
      ack: 1,
      ackName: 'SERVER',
    });
    expect(sentRes.body.id).toMatch(/^true_34600999888@c\.us_[0-9A-F]{32}$/);
    expect(fake.sent.at(-1)).toEqual({
      id: sentRes.body.id,
      session: name,
      chatId: '34600999888@c.us',
      kind: 'text',
      text: 'hello',
      replyTo: 'false_x_1',
    });

    const results = await fake.ack(name, sentRes.body.id, 3);
    expect(results).toEqual([{ url: receiver.url, status: 200, body: 'ok' }]);
    expect(receiver.events('message.ack').at(-1)?.body.payload).toEqual({
      id: sentRes.body.id,
      from: '34600000001@c.us',
      to: '34600999888@c.us',
      participant: null,
      fromMe: true,
      ack: 3,
      ackName: 'READ',
    });
    expect((await api('/api/sendSeen', { body: { session: name, chatId: '34600999888@c.us' } })).status).toBe(
      201,
    );
  });

  it('delivers inbound messages and serves their media behind the API key', async () => {
    const name = await workingSession();
    const bytes = Buffer.from('fake-jpeg-bytes');
    await fake.receive(name, {
      from: '34600999888@c.us',
      body: 'look',
      media: { bytes, mimetype: 'image/jpeg' },
      location: { latitude: 40.4, longitude: -3.7 },
    });
    const payload = receiver.events('message').at(-1)?.body.payload as Record<string, unknown> & {
      media: { url: string; mimetype: string };
    };
    expect(payload).toMatchObject({
      from: '34600999888@c.us',
      fromMe: false,
      to: '34600000001@c.us',
      body: 'look',
      hasMedia: true,
      location: { latitude: 40.4, longitude: -3.7 },
    });
    expect(payload.id).toMatch(/^false_34600999888@c\.us_[0-9A-F]{32}$/);
    expect(payload.media.url.startsWith(`${fake.url}/api/files/${name}/`)).toBe(true);
    expect((await fetch(payload.media.url)).status).toBe(401);
    const file = await fetch(payload.media.url, { headers: { 'x-api-key': fake.apiKey } });
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
  });

  it('stops, starts, restarts, updates, logs out and deletes', async () => {
    const name = await workingSession();
    expect((await api(`/api/sessions/${name}/start`, { body: {} })).body).toMatchObject({
      statusCode: 422,
      message: `Session '${name}' is already started`,
    });
    const stopped = await api(`/api/sessions/${name}/stop`, { body: {} });
    expect(stopped).toMatchObject({ status: 201, body: { status: 'STOPPED' } });
    expect(
      (await api(`/api/sendText`, { body: { session: name, chatId: '1@c.us', text: 'x' } })).body,
    ).toMatchObject({
      status: 'STOPPED',
      expected: ['WORKING'],
    });
    const started = await api(`/api/sessions/${name}/start`, { body: {} });
    expect(started.body.status).toBe('STARTING');
    await fake.idle();
    expect(fake.session(name)?.status).toBe('WORKING');

    const updated = await api(`/api/sessions/${name}`, {
      method: 'PUT',
      body: { config: { webhooks: [webhook(['message'])], metadata: { tenant: 't2' } } },
    });
    expect(updated).toMatchObject({
      status: 200,
      body: { status: 'STARTING', config: { metadata: { tenant: 't2' } } },
    });
    await fake.idle();
    expect(fake.session(name)).toMatchObject({ status: 'WORKING', me: { id: '34600000001@c.us' } });

    await fake.fail(name);
    expect(fake.session(name)?.status).toBe('FAILED');
    await api(`/api/sessions/${name}/restart`, { body: {} });
    await fake.idle();
    expect(fake.session(name)).toMatchObject({ status: 'SCAN_QR_CODE', me: null });

    await fake.pair(name, '34600000002');
    const loggedOut = await api(`/api/sessions/${name}/logout`, { body: {} });
    expect(loggedOut.body).toMatchObject({ me: null, status: 'STARTING' });
    await fake.idle();
    expect(fake.session(name)?.status).toBe('SCAN_QR_CODE');

    expect(await api(`/api/sessions/${name}`, { method: 'DELETE' })).toEqual({ status: 200, body: null });
    expect(fake.session(name)).toBeUndefined();
    expect((await api(`/api/sessions/${name}`)).status).toBe(404);
  });

  it('creates a stopped session when start is false', async () => {
    const name = fresh();
    const res = await api('/api/sessions', { body: { name, start: false } });
    expect(res.body.status).toBe('STOPPED');
    await fake.idle();
    expect(fake.session(name)?.status).toBe('STOPPED');
    expect((await api(`/api/${name}/auth/qr`)).body.expected).toEqual(['SCAN_QR_CODE']);
  });

  it('checks whether a number is on WhatsApp', async () => {
    const name = await workingSession();
    fake.registerNumber('34600555444');
    expect((await api(`/api/contacts/check-exists?phone=34600555444&session=${name}`)).body).toEqual({
      numberExists: true,
      chatId: '34600555444@c.us',
    });
    expect((await api(`/api/contacts/check-exists?phone=34600555000&session=${name}`)).body).toEqual({
      numberExists: false,
    });
  });
});

describe('webhooks', () => {
  it('signs each delivery with HMAC-SHA512 and sends only subscribed events', async () => {
    const name = await workingSession(['session.status', 'message']);
    await fake.receive(name, { from: '34600999888@c.us', body: 'hi' });
    const sentRes = await api('/api/sendText', {
      body: { session: name, chatId: '34600999888@c.us', text: 'yo' },
    });
    const acked = await fake.ack(name, sentRes.body.id, 2);
    expect(acked).toEqual([]);
    expect(receiver.events('message.ack')).toEqual([]);
    expect(receiver.posts.map((p) => p.body.event)).toEqual([
      'session.status',
      'session.status',
      'session.status',
      'message',
    ]);
    for (const post of receiver.posts) {
      expect(post.valid).toBe(true);
      expect(post.headers['x-webhook-hmac-algorithm']).toBe('sha512');
      expect(post.headers['content-type']).toBe('application/json');
      expect(Number(post.headers['x-webhook-timestamp'])).toBeGreaterThan(1_600_000_000_000);
    }
    const ids = new Set(receiver.posts.map((p) => p.headers['x-webhook-request-id']));
    expect(ids.size).toBe(receiver.posts.length);
  });

  it('sends no signature without a key, and lets tests forge deliveries', async () => {
    const name = fresh();
    await api('/api/sessions', { body: { name, config: { webhooks: [webhook(['*'], null)] } } });
    await fake.idle();
    expect(receiver.posts.length).toBe(2);
    expect(receiver.posts.every((p) => p.headers['x-webhook-hmac'] === undefined && !p.valid)).toBe(true);

    const signed = await createSession(['message']);
    const body = JSON.stringify({ event: 'message', payload: { body: 'exact bytes' } });
    expect(await fake.deliverRaw(signed, body)).toEqual([{ url: receiver.url, status: 200, body: 'ok' }]);
    expect(receiver.posts.at(-1)?.body.payload).toEqual({ body: 'exact bytes' });
    const forged = await fake.deliverRaw(signed, body, { 'X-Webhook-Hmac': 'ab'.repeat(64) });
    expect(forged[0].status).toBe(401);
    const unsigned = await fake.deliverRaw(signed, body, { 'X-Webhook-Hmac': '' });
    expect(unsigned[0].status).toBe(401);
    expect(receiver.posts.at(-1)?.headers['x-webhook-hmac']).toBeUndefined();
  });

  it('reports an unreachable webhook with status 0', async () => {
    const name = fresh();
    await api('/api/sessions', {
      body: { name, start: false, config: { webhooks: [{ url: 'http://127.0.0.1:9/x', events: ['*'] }] } },
    });
    const results = await fake.deliverRaw(name, '{}');
    expect(results[0]).toMatchObject({ url: 'http://127.0.0.1:9/x', status: 0 });
  });
});
