import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeAccount,
  type FakeInstagram,
  type FakeUser,
  startFakeInstagram,
  TROUBLE,
} from './fake-instagram';

/** The fake speaks the Instagram messaging API as documented: its limits, window and errors. */

const DAY = 24 * 3600_000;
let fake: FakeInstagram;
let account: FakeAccount;
let user: FakeUser;
let hook: http.Server;
const received: { signature: string | undefined; body: string }[] = [];

beforeAll(async () => {
  fake = await startFakeInstagram();
  account = fake.addAccount({ username: 'shop' });
  user = fake.addUser({ followsBusiness: true });
  hook = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://hook');
    if (req.method === 'GET') return void res.end(url.searchParams.get('hub.challenge') ?? '');
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      received.push({ signature: req.headers['x-hub-signature-256'] as string | undefined, body });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
  expect(await fake.setWebhook(account.accountId, { url, verifyToken: 'vt' })).toBe(true);
});
afterAll(async () => {
  await fake?.close();
  hook?.close();
});

async function graph(method: string, path: string, body?: unknown, token = account.token) {
  const res = await fetch(`${fake.url}/${fake.version}/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { error?: Record<string, unknown> },
  };
}

const send = (message: unknown, extra: Record<string, unknown> = {}, to = user.igsid) =>
  graph('POST', `${account.accountId}/messages`, {
    recipient: { id: to },
    messaging_type: 'RESPONSE',
    message,
    ...extra,
  });

describe('the fake Instagram API', () => {
  it('signs webhooks with the app secret and refuses a message to someone who never wrote', async () => {
    expect(await send({ text: 'hi' })).toMatchObject({
      status: 400,
      body: {
        error: { code: 100, error_subcode: 2534014, type: 'OAuthException', fbtrace_id: expect.any(String) },
      },
    });
    await fake.sendInbound(account.accountId, user.igsid, { text: 'hello' });
    const last = received.at(-1);
    expect(last?.signature).toBe(
      `sha256=${createHmac('sha256', account.appSecret)
        .update(last?.body ?? '')
        .digest('hex')}`,
    );
    expect(JSON.parse(last?.body ?? '{}')).toMatchObject({
      object: 'instagram',
      entry: [
        { id: account.accountId, messaging: [{ sender: { id: user.igsid }, message: { text: 'hello' } }] },
      ],
    });
  });

  it('takes a message within its limits and refuses past them with code 100', async () => {
    const ok = await send({
      text: 'x'.repeat(1000),
      quick_replies: Array.from({ length: 13 }, (_, i) => ({
        content_type: 'text',
        title: `${i}`.padEnd(20, '.'),
        payload: `${i}`,
      })),
    });
    expect(ok).toMatchObject({
      status: 200,
      body: { recipient_id: user.igsid, message_id: expect.any(String) },
    });
    const tooLong = await send({ text: 'x'.repeat(1001) });
    expect(tooLong.body.error).toMatchObject({ code: 100, message: expect.stringContaining('1000') });
    // Bytes, not characters: 500 Cyrillic letters are 1,000 bytes, 501 are over.
    expect((await send({ text: 'ж'.repeat(500) })).status).toBe(200);
    expect(await send({ text: 'ж'.repeat(501) })).toMatchObject({
      status: 400,
      body: { error: { code: 100, type: 'OAuthException', message: expect.stringContaining('1000 bytes') } },
    });
    expect((await send({ text: '😀'.repeat(251) })).body.error).toMatchObject({ code: 100 });
    const tooMany = await send({
      text: 'x',
      quick_replies: Array.from({ length: 14 }, (_, i) => ({
        content_type: 'text',
        title: `${i}`,
        payload: `${i}`,
      })),
    });
    expect(tooMany.body.error).toMatchObject({ code: 100, message: expect.stringContaining('13') });
    const longTitle = await send({
      text: 'x',
      quick_replies: [{ content_type: 'text', title: 'x'.repeat(21), payload: 'x' }],
    });
    expect(longTitle.body.error).toMatchObject({ code: 100, message: expect.stringContaining('20') });
    const file = await send({ attachment: { type: 'image', payload: { url: 'https://cdn.test/a.png' } } });
    expect(file.status).toBe(200);
  });

  it('keeps the 24-hour window, and HUMAN_AGENT’s 7 days, with the API’s error', async () => {
    const late = fake.addUser();
    await fake.sendInbound(account.accountId, late.igsid, { text: 'old', at: Date.now() - 2 * DAY });
    expect(await send({ text: 'hi' }, {}, late.igsid)).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 10,
          error_subcode: 2534022,
          message: expect.stringContaining('outside of allowed window'),
        },
      },
    });
    expect(
      (await send({ text: 'hi' }, { messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' }, late.igsid)).status,
    ).toBe(200);
    const older = fake.addUser();
    await fake.sendInbound(account.accountId, older.igsid, { text: 'older', at: Date.now() - 8 * DAY });
    expect(
      (await send({ text: 'hi' }, { messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' }, older.igsid)).body
        .error,
    ).toMatchObject({ code: 10, error_subcode: 2534022 });
  });

  it('answers a bad token with 190, the rate limit with 613, and profiles only of people who wrote', async () => {
    expect(
      (await graph('GET', `${account.accountId}?fields=username`, undefined, 'EAAbad')).body.error,
    ).toMatchObject({ code: 190 });
    expect((await graph('GET', `${account.accountId}?fields=username,name`)).body).toMatchObject({
      username: 'shop',
    });
    expect((await graph('GET', `${user.igsid}?fields=username,is_user_follow_business`)).body).toEqual({
      id: user.igsid,
      username: user.username,
      is_user_follow_business: true,
    });
    const stranger = fake.addUser();
    expect((await graph('GET', `${stranger.igsid}?fields=username`)).body.error).toMatchObject({ code: 230 });
    fake.perSecond = 1;
    try {
      const [a, b] = [
        await graph('GET', `${account.accountId}?fields=username`),
        await graph('GET', `${account.accountId}?fields=username`),
      ];
      expect(a.status).toBe(200);
      expect(b.body.error).toMatchObject({ code: 613 });
    } finally {
      fake.perSecond = null;
    }
  });

  it('answers its trouble to the next sends: throttling 400 (4, 17, 32, 613), outages 500 (1, 2), transient', async () => {
    for (const code of [4, 17, 32, 613, 1, 2] as const) {
      fake.trouble = { code, times: 1 };
      expect(await send({ text: 'hi' })).toMatchObject({
        status: code < 4 ? 500 : 400,
        body: { error: { code, type: 'OAuthException', is_transient: true, message: TROUBLE[code][1] } },
      });
      expect((await send({ text: 'hi' })).status).toBe(200);
    }
    expect(fake.trouble).toEqual({ code: 2, times: 0 });
    fake.trouble = null;
  });
});
