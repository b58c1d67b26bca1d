import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeCloudApi, type FakeNumber, startFakeCloudApi } from './fake-cloud-api';

let clock = 1_700_000_000_000;
let fake: FakeCloudApi;
let shop: FakeNumber;

/** A bot's webhook: answers the handshake with its verify token, checks each POST's signature. */
interface Receiver {
  url: string;
  verifyToken: string;
  posts: { signature: string | undefined; valid: boolean; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

async function startReceiver(appSecret: () => string, verifyToken = 'verify-me'): Promise<Receiver> {
  const posts: Receiver['posts'] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (req.method === 'GET') {
      const ok =
        url.searchParams.get('hub.mode') === 'subscribe' &&
        url.searchParams.get('hub.verify_token') === verifyToken;
      res.writeHead(ok ? 200 : 403, { 'content-type': 'text/plain' });
      res.end(ok ? (url.searchParams.get('hub.challenge') ?? '') : 'forbidden');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const signature = req.headers['x-hub-signature-256'] as string | undefined;
      const expected = Buffer.from(`sha256=${createHmac('sha256', appSecret()).update(raw).digest('hex')}`);
      const valid =
        signature !== undefined &&
        Buffer.byteLength(signature) === expected.length &&
        timingSafeEqual(Buffer.from(signature), expected);
      posts.push({ signature, valid, body: JSON.parse(raw.toString('utf8')) });
      res.writeHead(valid ? 200 : 401);
      res.end(valid ? 'EVENT_RECEIVED' : 'bad signature');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`,
    verifyToken,
    posts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let receiver: Receiver;

type HookStatus = Record<string, unknown> & { id: string; status: string };
interface HookValue {
  messages: Record<string, unknown>[];
  statuses: HookStatus[];
}

/** entry[0].changes[0].value of a webhook payload. */
function hookValue(payload: unknown): HookValue {
  return (payload as { entry: { changes: { value: HookValue }[] }[] }).entry[0].changes[0].value;
}

beforeAll(async () => {
  fake = await startFakeCloudApi({
    now: () => clock,
    limits: { perSecond: 5, pairIntervalMs: 6000, pairBurst: 3, pairBurstWindowMs: 6000 },
  });
  shop = fake.addNumber({ verifiedName: 'Shop', displayPhoneNumber: '15550001111' });
  receiver = await startReceiver(() => shop.appSecret);
  expect(await fake.setWebhook(shop.phoneNumberId, receiver)).toBe(true);
});
afterAll(async () => {
  await fake.close();
  await receiver.close();
});
beforeEach(() => {
  // Each test starts clear of the previous one's rate limits.
  clock += 10 * 60_000;
});

async function send(body: Record<string, unknown>, number = shop, token = number.token) {
  const res = await fetch(`${fake.url}/${fake.version}/${number.phoneNumberId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', ...body }),
  });
  return { status: res.status, body: await res.json() };
}

/** A user writes first, so the 24-hour window is open. */
async function userWrites(from: string, text = 'hi') {
  return fake.sendInbound(shop.phoneNumberId, { from, name: 'Ann', type: 'text', text });
}

const buttons = (n: number, title = (i: number) => `B${i}`) =>
  Array.from({ length: n }, (_, i) => ({ type: 'reply', reply: { id: `b${i}`, title: title(i) } }));
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, title: `Row ${i}` }));

describe('the fake Cloud API: webhooks', () => {
  it('subscribes a webhook only when it echoes the challenge for the right verify token', async () => {
    const other = fake.addNumber();
    const wrong = await startReceiver(() => other.appSecret, 'another-token');
    try {
      expect(await fake.setWebhook(other.phoneNumberId, { url: wrong.url, verifyToken: 'verify-me' })).toBe(
        false,
      );
      const verify = fake.deliveries.filter((d) => d.kind === 'verify').at(-1)!;
      expect(verify.status).toBe(403);
      expect(new URL(verify.url).searchParams.get('hub.mode')).toBe('subscribe');
      await expect(
        fake.sendInbound(other.phoneNumberId, { from: '1', type: 'text', text: 'x' }),
      ).rejects.toThrow(/no webhook/);
      expect(await fake.setWebhook(other.wabaId, { url: wrong.url, verifyToken: 'another-token' })).toBe(
        true,
      );
      expect(
        (await fake.sendInbound(other.phoneNumberId, { from: '1', type: 'text', text: 'x' })).status,
      ).toBe(200);
    } finally {
      await wrong.close();
    }
  });

  it('delivers a signed inbound message in the real payload shape', async () => {
    const { status, body, messageId } = await userWrites('447700900001', 'Hello there');
    expect({ status, body }).toEqual({ status: 200, body: 'EVENT_RECEIVED' });
    expect(messageId).toMatch(/^wamid\./);
    const post = receiver.posts.at(-1)!;
    expect(post.valid).toBe(true);
    expect(post.body).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: shop.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550001111', phone_number_id: shop.phoneNumberId },
                contacts: [{ profile: { name: 'Ann' }, wa_id: '447700900001' }],
                messages: [
                  {
                    from: '447700900001',
                    id: messageId,
                    timestamp: String(Math.floor(clock / 1000)),
                    type: 'text',
                    text: { body: 'Hello there' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    expect(fake.lastInbound(shop.phoneNumberId, '447700900001')).toBe(clock);
  });

  it('builds media, location, interactive and template-button messages', async () => {
    const from = '447700900002';
    const image = await fake.sendInbound(shop.phoneNumberId, {
      from,
      type: 'image',
      bytes: new Uint8Array([1, 2, 3]),
      mimeType: 'image/jpeg',
      caption: 'look',
      replyTo: 'wamid.business',
    });
    const img = hookValue(receiver.posts.at(-1)!.body).messages[0];
    expect(img).toMatchObject({
      id: image.messageId,
      type: 'image',
      context: { from: '15550001111', id: 'wamid.business' },
      image: { mime_type: 'image/jpeg', caption: 'look', sha256: expect.any(String), id: expect.any(String) },
    });
    const kinds = [
      { type: 'location' as const, latitude: 51.5, longitude: -0.12, name: 'Office' },
      { type: 'button_reply' as const, id: 'yes', title: 'Yes' },
      { type: 'list_reply' as const, id: 'r1', title: 'Row 1', description: 'first' },
      { type: 'button' as const, payload: 'STOP', text: 'Stop promotions' },
    ];
    for (const kind of kinds) await fake.sendInbound(shop.phoneNumberId, { from, ...kind });
    const last = receiver.posts.slice(-4).map((p) => hookValue(p.body).messages[0]);
    expect(last[0]).toMatchObject({ type: 'location', location: { latitude: 51.5, longitude: -0.12 } });
    expect(last[1]).toMatchObject({
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } },
    });
    expect(last[2]).toMatchObject({
      type: 'interactive',
      interactive: { type: 'list_reply', list_reply: { id: 'r1', title: 'Row 1', description: 'first' } },
    });
    expect(last[3]).toMatchObject({ type: 'button', button: { payload: 'STOP', text: 'Stop promotions' } });
  });

  it('sends a raw payload with a bad signature, which the receiver refuses', async () => {
    const batched = {
      object: 'whatsapp_business_account',
      entry: [{ id: shop.wabaId, changes: [] }, { id: 'x' }],
    };
    expect((await fake.deliver(shop.phoneNumberId, batched)).status).toBe(200);
    expect(await fake.deliver(shop.phoneNumberId, batched, { signature: 'sha256=00' })).toEqual({
      status: 401,
      body: 'bad signature',
    });
    expect(receiver.posts.at(-1)!.valid).toBe(false);
  });
});

describe('the fake Cloud API: sending', () => {
  it('sends text, buttons and a list in the window, with sent and delivered statuses', async () => {
    await userWrites('447700900010');
    const text = await send({ to: '+44 7700 900010', type: 'text', text: { body: 'x'.repeat(4096) } });
    expect(text.status).toBe(200);
    expect(text.body).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: '+44 7700 900010', wa_id: '447700900010' }],
      messages: [{ id: expect.stringMatching(/^wamid\./) }],
    });
    clock += 6000;
    const withButtons = await send({
      to: '447700900010',
      type: 'interactive',
      interactive: { type: 'button', body: { text: 'Pick' }, action: { buttons: buttons(3) } },
    });
    expect(withButtons.status).toBe(200);
    clock += 6000;
    const list = await send({
      to: '447700900010',
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Menu' },
        action: {
          button: 'x'.repeat(20),
          sections: [
            { title: 'A', rows: rows(5) },
            { title: 'B', rows: rows(5).map((r) => ({ ...r, id: `${r.id}b`, description: 'd'.repeat(72) })) },
          ],
        },
      },
    });
    expect(list.status).toBe(200);
    expect(fake.sent(shop.phoneNumberId, '447700900010').map((m) => m.type)).toEqual([
      'text',
      'interactive',
      'interactive',
    ]);
    const before = receiver.posts.length;
    const statuses = await fake.flushStatuses();
    expect(statuses.map((d) => d.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const first = hookValue(receiver.posts[before].body).statuses[0];
    expect(first).toMatchObject({
      id: text.body.messages[0].id,
      status: 'sent',
      recipient_id: '447700900010',
      conversation: { origin: { type: 'service' } },
      pricing: { billable: false, category: 'service' },
    });
    const read = await fake.markRead(text.body.messages[0].id);
    expect(hookValue(read?.payload).statuses[0]).toMatchObject({ status: 'read' });
    expect(fake.sent(shop.phoneNumberId, '447700900010')[0].status).toBe('read');
  });

  it('answers the limit errors with the codes Meta answers', async () => {
    await userWrites('447700900020');
    const to = '447700900020';
    const check = async (body: Record<string, unknown>, code: number, details?: string | RegExp) => {
      clock += 60_000;
      const res = await send({ to, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toMatchObject({ code, type: 'OAuthException', fbtrace_id: expect.any(String) });
      if (details) expect(res.body.error.error_data?.details ?? res.body.error.message).toMatch(details);
      return res.body.error;
    };
    const textError = await check({ type: 'text', text: { body: 'x'.repeat(4097) } }, 100);
    expect(textError.message).toBe("(#100) Param text['body'] must be at most 4096 characters long.");
    const interactive = (value: Record<string, unknown>) => ({ type: 'interactive', interactive: value });
    const buttonMsg = (b: unknown[], body = 'Pick') =>
      interactive({ type: 'button', body: { text: body }, action: { buttons: b } });
    await check(buttonMsg(buttons(3), 'x'.repeat(1025)), 100, /1024/);
    const four = await check(
      buttonMsg(buttons(4)),
      131009,
      'Invalid buttons count. Min allowed buttons: 1, Max allowed buttons: 3',
    );
    expect(four.message).toBe('(#131009) Parameter value is not valid');
    await check(buttonMsg(buttons(1, () => 'x'.repeat(21))), 131009, /Button title length invalid/);
    await check(
      buttonMsg([
        { type: 'reply', reply: { id: 'same', title: 'A' } },
        { type: 'reply', reply: { id: 'same', title: 'B' } },
      ]),
      131009,
      /Duplicate button id/,
    );
    const list = (sections: unknown[], button = 'Open') =>
      interactive({ type: 'list', body: { text: 'Menu' }, action: { button, sections } });
    await check(
      list([
        { title: 'A', rows: rows(6) },
        { title: 'B', rows: rows(5).map((r) => ({ ...r, id: `${r.id}b` })) },
      ]),
      131009,
      'Total row count exceed max allowed count: 10',
    );
    await check(
      list(Array.from({ length: 11 }, (_, i) => ({ title: `S${i}`, rows: [{ id: `r${i}`, title: 'R' }] }))),
      131009,
      /sections count/,
    );
    await check(
      list([{ rows: [{ id: 'r', title: 'x'.repeat(25) }] }]),
      131009,
      'Row title is too long. Max length is 24',
    );
    await check(
      list([{ rows: [{ id: 'r', title: 'R', description: 'x'.repeat(73) }] }]),
      131009,
      'Row description is too long. Max length is 72',
    );
    await check(list([{ rows: rows(1) }], 'x'.repeat(21)), 131009, /length invalid/);
    clock += 60_000;
    const noTo = await send({ type: 'text', text: { body: 'x' } });
    expect(noTo.status).toBe(400);
    expect(noTo.body.error).toMatchObject({ code: 100, message: '(#100) The parameter to is required.' });
    expect(fake.sent(shop.phoneNumberId, to)).toEqual([]);
  });

  it('answers 401 code 190 for a bad token and 100/33 for a number the token cannot see', async () => {
    const bad = await send({ to: '1', type: 'text', text: { body: 'x' } }, shop, 'EAAbad');
    expect(bad).toMatchObject({
      status: 401,
      body: { error: { code: 190, type: 'OAuthException', message: expect.stringMatching(/access token/) } },
    });
    const missing = await send({ to: '1', type: 'text', text: { body: 'x' } }, shop, '');
    expect(missing.status).toBe(401);
    const other = fake.addNumber();
    const foreign = await send({ to: '1', type: 'text', text: { body: 'x' } }, other, shop.token);
    expect(foreign).toMatchObject({
      status: 400,
      body: { error: { code: 100, error_subcode: 33, type: 'GraphMethodException' } },
    });
  });
});

describe('the fake Cloud API: the window, blocks and rate limits', () => {
  it('accepts a free-form message outside the 24-hour window, then fails it with 131047', async () => {
    const to = '447700900030';
    const never = await send({ to, type: 'text', text: { body: 'cold' } });
    expect(never.status).toBe(200);
    await userWrites(to);
    clock += 24 * 3600_000 - 1000;
    const inWindow = await send({ to, type: 'text', text: { body: 'warm' } });
    clock += 2000;
    const late = await send({ to, type: 'text', text: { body: 'late' } });
    expect(late.status).toBe(200);
    const before = receiver.posts.length;
    await fake.flushStatuses();
    const statuses = receiver.posts.slice(before).map((p) => hookValue(p.body).statuses[0]);
    const byId = (id: string) => statuses.filter((s) => s.id === id).map((s) => s.status);
    expect(byId(never.body.messages[0].id)).toEqual(['failed']);
    expect(byId(inWindow.body.messages[0].id)).toEqual(['sent', 'delivered']);
    expect(byId(late.body.messages[0].id)).toEqual(['failed']);
    expect(statuses.find((s) => s.id === late.body.messages[0].id)).toMatchObject({
      status: 'failed',
      recipient_id: to,
      errors: [{ code: 131047, title: 'Re-engagement message', error_data: { details: expect.any(String) } }],
    });
  });

  it('refuses a free-form message outside the window at once with 131047 when told to', async () => {
    const to = '447700900031';
    fake.reengagement = 'sync';
    try {
      const refused = await send({ to, type: 'text', text: { body: 'cold' } });
      expect(refused).toMatchObject({
        status: 400,
        body: { error: { code: 131047, message: '(#131047) Re-engagement message' } },
      });
      await userWrites(to);
      expect((await send({ to, type: 'text', text: { body: 'warm' } })).status).toBe(200);
    } finally {
      fake.reengagement = 'status';
    }
    expect(fake.sent(shop.phoneNumberId, to).map((m) => m.payload.text)).toEqual([{ body: 'warm' }]);
    await fake.flushStatuses();
  });

  it('fails messages to a blocked recipient with 131026', async () => {
    const to = '447700900040';
    await userWrites(to);
    fake.blockRecipient(to);
    const res = await send({ to, type: 'text', text: { body: 'x' } });
    expect(res.status).toBe(200);
    const [failed] = await fake.flushStatuses();
    expect(hookValue(failed.payload).statuses[0]).toMatchObject({
      status: 'failed',
      errors: [{ code: 131026 }],
    });
  });

  it('limits a pair to bursts then one message every 6 s (131056), and a number to its throughput (130429)', async () => {
    const to = '447700900050';
    await userWrites(to);
    for (let i = 0; i < 3; i++) expect((await send({ to, text: { body: `${i}` } })).status).toBe(200);
    const over = await send({ to, text: { body: 'over' } });
    expect(over).toMatchObject({ status: 400, body: { error: { code: 131056 } } });
    // The burst borrowed 18 s: the next message waits until then.
    clock += 17_000;
    expect((await send({ to, text: { body: 'early' } })).body.error.code).toBe(131056);
    clock += 1000;
    expect((await send({ to, text: { body: 'paid' } })).status).toBe(200);
    const times = fake.sendTimes(shop.phoneNumberId, to);
    expect(times.at(-1)! - times.at(-2)!).toBe(18_000);

    clock += 60_000;
    const recipients = Array.from({ length: 6 }, (_, i) => `44770090100${i}`);
    for (const r of recipients) await userWrites(r);
    for (const r of recipients.slice(0, 5))
      expect((await send({ to: r, text: { body: 'x' } })).status).toBe(200);
    expect(await send({ to: recipients[5], text: { body: 'x' } })).toMatchObject({
      status: 429,
      body: { error: { code: 130429, message: '(#130429) Rate limit hit' } },
    });
    clock += 1000;
    expect((await send({ to: recipients[5], text: { body: 'x' } })).status).toBe(200);
    await fake.flushStatuses();
  });
});

describe('the fake Cloud API: read receipts, media, templates, the network', () => {
  it('marks an inbound message read with a typing indicator; an unknown id is refused', async () => {
    const { messageId } = await userWrites('447700900060');
    const read = await send({ status: 'read', message_id: messageId, typing_indicator: { type: 'text' } });
    expect(read).toEqual({ status: 200, body: { success: true } });
    const unknown = await send({ status: 'read', message_id: 'wamid.nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe(131009);
  });

  it('gives media by id and its bytes at the url, only with the token', async () => {
    const bytes = new Uint8Array([9, 8, 7, 6]);
    const id = fake.addMedia(shop.phoneNumberId, bytes, 'application/pdf');
    const info = await fetch(`${fake.url}/${fake.version}/${id}`, {
      headers: { authorization: `Bearer ${shop.token}` },
    });
    const body = await info.json();
    expect(body).toMatchObject({
      messaging_product: 'whatsapp',
      mime_type: 'application/pdf',
      file_size: 4,
      id,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(body.url.startsWith(fake.url)).toBe(true);
    const file = await fetch(body.url, { headers: { authorization: `Bearer ${shop.token}` } });
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
    expect((await fetch(body.url)).status).toBe(401);
    const unknown = await fetch(`${fake.url}/${fake.version}/123`, {
      headers: { authorization: `Bearer ${shop.token}` },
    });
    expect((await unknown.json()).error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it('sends approved templates outside the window; refuses unknown ones and wrong parameter counts', async () => {
    fake.addTemplate(shop.wabaId, { name: 'order_ready', language: 'en_US', bodyParams: 2 });
    fake.addTemplate(shop.wabaId, {
      name: 'pending_one',
      language: 'en_US',
      bodyParams: 0,
      status: 'PENDING',
    });
    const to = '447700900070';
    const template = (name: string, language: string, params: number) => ({
      to,
      type: 'template',
      template: {
        name,
        language: { code: language },
        components: [
          {
            type: 'body',
            parameters: Array.from({ length: params }, (_, i) => ({ type: 'text', text: `${i}` })),
          },
        ],
      },
    });
    const ok = await send(template('order_ready', 'en_US', 2));
    expect(ok.status).toBe(200);
    expect(ok.body.messages[0]).toMatchObject({ message_status: 'accepted' });
    const [sent] = await fake.flushStatuses();
    expect(hookValue(sent.payload).statuses[0]).toMatchObject({
      status: 'sent',
      pricing: { billable: true, category: 'utility' },
    });
    await fake.flushStatuses();
    clock += 60_000;
    const unknown = await send(template('order_ready', 'de', 2));
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 132001 } } });
    clock += 60_000;
    expect((await send(template('pending_one', 'en_US', 0))).body.error.code).toBe(132001);
    clock += 60_000;
    const count = await send(template('order_ready', 'en_US', 1));
    expect(count).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 132000,
          error_data: {
            details:
              'body: number of localizable_params (1) does not match the expected number of params (2)',
          },
        },
      },
    });
    // A parameter may not carry a new line, a tab or more than four spaces in a row.
    for (const text of ['two\nlines', 'a\ttab', 'five     spaces']) {
      clock += 60_000;
      const body = template('order_ready', 'en_US', 2);
      body.template.components[0].parameters[1] = { type: 'text', text };
      expect(await send(body)).toMatchObject({
        status: 400,
        body: {
          error: {
            code: 132018,
            message: "(#132018) There's an issue with the parameters in your template",
            error_data: {
              details: 'Param text cannot have new-line/tab characters or more than 4 consecutive spaces',
            },
          },
        },
      });
    }
    clock += 60_000;
    const four = template('order_ready', 'en_US', 2);
    four.template.components[0].parameters[1] = { type: 'text', text: 'four    spaces' };
    expect((await send(four)).status).toBe(200);
    await fake.flushStatuses();
  });

  it('delivers statuses on its own with autoStatuses, and markDelivered on demand', async () => {
    const auto = await startFakeCloudApi({ now: () => clock, autoStatuses: true });
    const number = auto.addNumber();
    const hook = await startReceiver(() => number.appSecret);
    try {
      expect(await auto.setWebhook(number.phoneNumberId, hook)).toBe(true);
      await auto.sendInbound(number.phoneNumberId, { from: '447700900090', type: 'text', text: 'hi' });
      const res = await fetch(`${auto.url}/${auto.version}/${number.phoneNumberId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${number.token}` },
        body: JSON.stringify({ messaging_product: 'whatsapp', to: '447700900090', text: { body: 'x' } }),
      });
      const id = (await res.json()).messages[0].id as string;
      for (let i = 0; i < 100 && hook.posts.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
      expect(hook.posts.slice(1).map((p) => hookValue(p.body).statuses[0].status)).toEqual([
        'sent',
        'delivered',
      ]);
      expect(await auto.markDelivered(id)).toBeNull();
      expect(hookValue((await auto.markRead(id))?.payload).statuses[0]).toMatchObject({ id, status: 'read' });
    } finally {
      await auto.close();
      await hook.close();
    }
  });

  it('answers 502 from the proxy, or drops the connection, when the test says so', async () => {
    const recorded = fake.calls.length;
    fake.intercept = () => 'bad_gateway';
    const gateway = await fetch(`${fake.url}/${fake.version}/${shop.phoneNumberId}/messages`, {
      method: 'POST',
      body: '{}',
    });
    expect(gateway.status).toBe(502);
    expect(await gateway.text()).toMatch(/502 Bad Gateway/);
    fake.intercept = () => 'drop';
    await expect(
      fetch(`${fake.url}/${fake.version}/${shop.phoneNumberId}/messages`, { method: 'POST', body: '{}' }),
    ).rejects.toThrow();
    // Neither reached the service: nothing was processed or recorded.
    expect(fake.calls.length).toBe(recorded);
    fake.intercept = null;
    await userWrites('447700900080');
    expect((await send({ to: '447700900080', text: { body: 'through' } })).status).toBe(200);
    const calls = fake.callsOf(`/${fake.version}/${shop.phoneNumberId}/messages`);
    expect(calls.at(-1)).toMatchObject({
      method: 'POST',
      status: 200,
      body: { to: '447700900080' },
      answer: { messaging_product: 'whatsapp' },
      at: clock,
    });
  });
});
