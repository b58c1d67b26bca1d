import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import type { PrismaClient } from '@/server/db/client-type';
import { getEngineDeps } from '@/server/engine/engine';
import { releaseHeldSends } from '@/server/engine/held-sends';
import { sweepOutbox } from '@/server/engine/outbox';
import type { Interception } from '@/server/testing/intercepted';
import { waitFor } from '@/server/testing/wait-for';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { chatappChannel } from './adapter';
import { type ChatappTestApp, useChatappTestApp } from './testing/chatapp-test-app';
import { type FakeWaha, startFakeWaha } from './testing/fake-waha';

/**
 * The chat-app channel through a WhatsApp Web session gateway end to end, against a fake WAHA
 * server: the session created with our signed webhook, its QR code shown until the phone is
 * paired, the paired number becoming the bot id, clients' messages delivered signed to the real
 * route over HTTP and answered through the gateway, acks moving the delivery status,
 * check_chatapp asked of the gateway, and the session's state in connected_channels.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-gateway-'));
const SESSION = 'default';
const PHONE = '15550002222';
let app: ChatappTestApp;
let db: PrismaClient;
let waha: FakeWaha;
let routes: ChatappTestApp['routes'];
let owner: ChatappTestApp['owner'];
let projectId: number;
let channelId: number;
const callApi = (action: string, params: Record<string, unknown>) => app.callApi(action, params);

const textsTo = (chatId: string) => waha.sent.filter((m) => m.chatId === chatId).map((m) => m.text);

beforeAll(async () => {
  waha = await startFakeWaha({ apiKey: 'waha-secret-key', tier: 'CORE' });
  app = await useChatappTestApp(tmp, {
    BLOCKBOT_CHATAPP_RETRY_SECONDS: '5',
    BLOCKBOT_CHATAPP_HOLD_HOURS: '2',
  });
  ({ db, routes, owner, projectId } = app);
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: 'Welcome! Pay now?',
        trigger: { alternatives: '' },
        buttons: [
          { type: 'reply', text: 'Yes' },
          { type: 'reply', text: 'No' },
          { type: 'reply', text: 'Site', url: 'https://shop.example/pay' },
        ],
      },
      { id: 2, kind: 'start', text: 'Paid, thank you', trigger: { alternatives: 'Yes' } },
      {
        id: 3,
        kind: 'start',
        text: 'Got your file',
        trigger: { alternatives: 'photo' },
        attachments: [{ type: 'image', url: 'https://cdn.example/receipt.png' }],
      },
      {
        id: 4,
        kind: 'start',
        text: 'Our price list',
        trigger: { alternatives: 'prices' },
        attachments: [{ type: 'file', url: 'https://cdn.example/files/Price%20list.pdf?v=2' }],
      },
    ],
    arrows: [],
  });
});
afterAll(async () => {
  await app?.close();
  await waha?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('connecting a session', () => {
  it('refuses a wrong API key and an unreachable gateway, naming the field, and stores nothing', async () => {
    await expect(
      owner.channels.connect({
        kind: 'chatapp',
        provider: 'gateway',
        projectId,
        url: waha.url,
        apiKey: 'wrong',
        session: SESSION,
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining('refused the API key') });
    await expect(
      owner.channels.connect({
        kind: 'chatapp',
        provider: 'gateway',
        projectId,
        url: 'http://127.0.0.1:9',
        apiKey: 'k',
        session: SESSION,
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining('could not be reached') });
    await expect(
      owner.channels.connect({
        kind: 'chatapp',
        provider: 'gateway',
        projectId,
        url: 'waha:3000',
        apiKey: 'k',
        session: SESSION,
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining('gateway’s address') });
    expect(await db.channel.count({ where: { projectId } })).toBe(0);
  });

  it('creates the session with our signed webhook, shows its QR code, and takes the paired number as the bot id', async () => {
    const connected = await owner.channels.connect({
      kind: 'chatapp',
      provider: 'gateway',
      projectId,
      url: waha.url,
      apiKey: waha.apiKey,
      session: SESSION,
    });
    channelId = connected.id;
    expect(connected).toMatchObject({ groupId: '', chatapp: { provider: 'gateway', session: SESSION } });
    const config = waha.session(SESSION)?.config as {
      webhooks: { url: string; events: string[]; hmac: { key: string } }[];
    };
    expect(config.webhooks[0]).toMatchObject({
      url: `${routes.url}/api/channels/chatapp/${channelId}`,
      events: ['message', 'message.ack', 'session.status'],
    });
    const channel = await db.channel.findUniqueOrThrow({ where: { id: channelId } });
    expect(JSON.stringify(channel.credentials)).not.toContain(waha.apiKey);
    expect(JSON.stringify(channel.credentials)).not.toContain(config.webhooks[0].hmac.key);
    expect(JSON.stringify(await owner.channels.list({ projectId }))).not.toContain(waha.apiKey);

    await waitFor(
      async () => waha.session(SESSION)?.status === 'SCAN_QR_CODE',
      'the session showing a QR code',
    );
    const pairing = await owner.channels.query({
      kind: 'chatapp',
      operation: 'pairing',
      projectId,
      channelId,
    });
    expect(pairing).toMatchObject({ state: 'SCAN_QR_CODE', status: 0 });
    expect(pairing.qr).toMatch(/^data:image\/png;base64,/);
    expect((await callApi('connected_channels', {})).body).toMatchObject({ status: 'success' });

    await waha.pair(SESSION, PHONE, 'Pizza');
    await waha.idle();
    const paired = await db.channel.findUniqueOrThrow({ where: { id: channelId } });
    expect(paired).toMatchObject({ groupId: PHONE, status: 1, name: 'Pizza' });
    expect(JSON.stringify((await callApi('connected_channels', {})).body)).toContain(PHONE);
  });
});

describe('a client writing to the paired number', () => {
  it('is answered through the gateway with numbered options; typing the number follows the option', async () => {
    const [result] = await waha.receive(SESSION, { from: '79001000001@c.us', body: 'hello' });
    expect(result.status).toBe(200);
    await waitFor(async () => textsTo('79001000001@c.us').length === 1, 'the welcome');
    expect(textsTo('79001000001@c.us')[0]).toBe(
      'Welcome! Pay now?\n\n1. Yes\n2. No\nSite: https://shop.example/pay',
    );
    expect(waha.calls.some((c) => c.path === '/api/sendSeen')).toBe(true);
    const client = await db.client.findFirstOrThrow({ where: { projectId, platformId: '79001000001' } });
    expect(client).toMatchObject({ clientType: 6, groupId: PHONE });

    await waha.receive(SESSION, { from: '79001000001@s.whatsapp.net', body: '1' });
    await waitFor(async () => textsTo('79001000001@c.us').length === 2, 'the answer to 1');
    expect(textsTo('79001000001@c.us')[1]).toBe('Paid, thank you');
    // Both suffixes are one client.
    expect(await db.client.count({ where: { projectId, clientType: 6 } })).toBe(1);
    const history = await db.message.findMany({
      where: { clientId: client.id, direction: 'in' },
      orderBy: { id: 'asc' },
    });
    expect(history.map((m) => m.text)).toEqual(['hello', 'Yes']);
  });

  it('acks move the delivery status; a resent delivery is stored once', async () => {
    const sent = waha.sent.find((m) => m.text === 'Paid, thank you');
    if (!sent) throw new Error('no send');
    // The gateway has the text as soon as it answers; our answer is recorded just after.
    await waitFor(
      async () => (await db.message.findFirst({ where: { externalId: sent.id } }))?.status === 'sent',
      'the send recorded as sent',
    );
    const message = await db.message.findFirstOrThrow({ where: { externalId: sent.id } });
    await waha.ack(SESSION, sent.id, 3);
    await waitFor(
      async () => (await db.message.findUniqueOrThrow({ where: { id: message.id } })).status === 'read',
      'the status moved to read',
    );
    const id = 'false_79001000002@c.us_AAAABBBBCCCCDDDDEEEEFFFF00001111';
    await waha.receive(SESSION, { from: '79001000002@c.us', body: 'hi', id });
    await waha.receive(SESSION, { from: '79001000002@c.us', body: 'hi', id });
    await waitFor(async () => textsTo('79001000002@c.us').length >= 1, 'the welcome');
    expect(await db.channelUpdate.count({ where: { channelId, externalId: id } })).toBe(1);
    expect(
      await db.message.count({ where: { client: { platformId: '79001000002' }, direction: 'in' } }),
    ).toBe(1);
  });

  it('stores the client’s file from the gateway; a file the bot sends goes as its address on WAHA Core', async () => {
    await waha.receive(SESSION, {
      from: '79001000003@c.us',
      body: 'photo',
      media: { bytes: Buffer.from('png-bytes'), mimetype: 'image/png', filename: 'receipt.png' },
    });
    await waitFor(async () => textsTo('79001000003@c.us').length === 1, 'the answer to the photo');
    const file = await db.storedFile.findFirstOrThrow({ where: { client: { platformId: '79001000003' } } });
    expect(Buffer.from(file.bytes).toString()).toBe('png-bytes');
    expect(textsTo('79001000003@c.us')[0]).toBe('Got your file\nhttps://cdn.example/receipt.png');
    expect(waha.calls.some((c) => c.path === '/api/sendImage' && c.status === 422)).toBe(true);
  });

  it('sends a file by link with its name and type on WAHA Plus (its RemoteFile requires the type)', async () => {
    waha.tier = 'PLUS';
    try {
      await waha.receive(SESSION, { from: '79001000006@c.us', body: 'prices' });
      await waitFor(async () => textsTo('79001000006@c.us').length === 1, 'the price list');
    } finally {
      waha.tier = 'CORE';
    }
    expect(waha.sent.filter((m) => m.chatId === '79001000006@c.us')).toEqual([
      expect.objectContaining({
        kind: 'file',
        text: 'Our price list',
        file: {
          url: 'https://cdn.example/files/Price%20list.pdf?v=2',
          filename: 'Price list.pdf',
          mimetype: 'application/pdf',
        },
      }),
    ]);
  });

  it('refuses a delivery not signed with the session’s key, storing nothing', async () => {
    const body = JSON.stringify({
      event: 'message',
      session: SESSION,
      payload: {
        id: 'false_forged',
        timestamp: 1,
        from: '79001000009@c.us',
        body: 'forged',
        hasMedia: false,
      },
    });
    const [unsigned] = await waha.deliverRaw(SESSION, body, { 'X-Webhook-Hmac': '' });
    expect(unsigned.status).toBe(401);
    const [forged] = await waha.deliverRaw(SESSION, body, { 'X-Webhook-Hmac': 'ab'.repeat(64) });
    expect(forged.status).toBe(401);
    expect(await db.channelUpdate.count({ where: { externalId: 'false_forged' } })).toBe(0);
  });
});

describe("a gateway's bad day", () => {
  /** Sends of text to `chatId`, as the fake saw them arrive (intercepted or processed). */
  const sendsArriving = (chatId: string, fates: Interception[]) => {
    const seen: Interception[] = [];
    waha.intercept = ({ path, body }) => {
      if (path !== '/api/sendText' || (body as { chatId?: string }).chatId !== chatId) return 'process';
      const fate = fates[seen.length] ?? 'process';
      seen.push(fate);
      return fate;
    };
    return seen;
  };
  afterEach(() => {
    waha.intercept = null;
  });

  it('sends again after a 502 and a closed connection, and the client gets the answer once', async () => {
    const chat = '79001000004@c.us';
    const seen = sendsArriving(chat, ['bad_gateway', 'drop']);
    await waha.receive(SESSION, { from: chat, body: 'hello' });
    await waitFor(async () => textsTo(chat).length === 1, 'the welcome, on the third try');
    expect(seen).toEqual(['bad_gateway', 'drop', 'process']);
    // Recorded just after the gateway answers.
    const message = await waitFor(
      () =>
        db.message.findFirst({
          where: { client: { platformId: '79001000004' }, direction: 'out', status: { not: 'queued' } },
        }),
      'the send recorded',
    );
    expect(message).toMatchObject({ status: 'sent', delivered: true, error: null });
  });

  it('holds a send the gateway keeps failing past BLOCKBOT_CHATAPP_RETRY_SECONDS (5 s here), and sends it once when it answers again', async () => {
    const chat = '79001000005@c.us';
    const fates = Array<Interception>(100).fill('bad_gateway');
    const seen = sendsArriving(chat, fates);
    await waha.receive(SESSION, { from: chat, body: 'hello' });
    const held = await waitFor(
      () =>
        db.message.findFirst({
          where: { client: { platformId: '79001000005' }, direction: 'out', error: { not: null } },
        }),
      'the send held',
      30_000,
    );
    expect(held).toMatchObject({ status: 'queued', delivered: false });
    expect(held.error).toContain(
      'the gateway could not take it yet (tried again later): the gateway did not send it: HTTP 502',
    );
    expect(await db.outbox.findFirst({ where: { messageId: held.id } })).toMatchObject({ state: 'held' });
    expect(seen.length).toBeGreaterThan(2);
    expect(textsTo(chat)).toEqual([]);

    // The gateway answers again: the held send goes at its next try (made due here), once.
    fates.length = 0;
    await releaseHeldSends(db, { projectId, clientType: 6, groupId: PHONE });
    const deps = await getEngineDeps();
    await waitFor(async () => {
      await sweepOutbox(deps);
      return textsTo(chat).length === 1;
    }, 'the held send sent');
    expect(await db.message.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({
      status: 'sent',
      error: null,
    });
    await sweepOutbox(deps);
    expect(textsTo(chat)).toHaveLength(1);
  });
});

describe('the API through the gateway', () => {
  it('check_chatapp asks the gateway, any phone format', async () => {
    waha.registerNumber('79005554433');
    expect((await callApi('check_chatapp', { phone: '+7 (900) 555-44-33' })).body).toMatchObject({
      status: 'success',
      exists: true,
    });
    expect((await callApi('check_chatapp', { phone: '79005550000' })).body).toMatchObject({ exists: false });
    expect(waha.calls.filter((c) => c.path === '/api/contacts/check-exists').at(-1)?.query).toMatchObject({
      phone: '79005550000',
      session: SESSION,
    });
  });

  it('chatapp_message sends through the gateway; a failed session is ASLEEP (2) in connected_channels', async () => {
    const sent = await callApi('chatapp_message', {
      chatapp_bot_id: `+${PHONE}`,
      phone: '79001000001@c.us',
      message: 'From the API',
    });
    expect(sent.status).toBe(200);
    await waitFor(async () => textsTo('79001000001@c.us').includes('From the API'), 'the API’s message');
    await waha.fail(SESSION);
    await waha.idle();
    expect((await callApi('connected_channels', {})).body).toMatchObject({
      channels: { chatapp: [{ group_id: PHONE, client_type: 6, status: 2 }] },
    });
    const channel = await db.channel.findUniqueOrThrow({ where: { id: channelId } });
    expect(channel.lastError).toContain('session failed');
  });
});

describe('a session that is down', () => {
  const chat = '79001000007@c.us';
  const historyOf = (platformId: string) =>
    db.message.findMany({
      where: { client: { projectId, platformId }, direction: 'out' },
      orderBy: { id: 'asc' },
    });

  it('holds the messages written meanwhile as queued, and sends them once each, in order, when it works again', async () => {
    if (waha.session(SESSION)?.status !== 'FAILED') await waha.fail(SESSION);
    await waha.idle();
    const write = (message: string) =>
      callApi('chatapp_message', { chatapp_bot_id: PHONE, phone: chat, message });
    // The API does not say they were sent.
    expect((await write('First while down')).body).toMatchObject({ status: 'success', sent: 0, queued: 1 });
    expect((await write('Second while down')).body).toMatchObject({ sent: 0, queued: 1 });
    const held = await historyOf('79001000007');
    expect(held.map((m) => [m.text, m.status])).toEqual([
      ['First while down', 'queued'],
      ['Second while down', 'queued'],
    ]);
    expect(held[0].error).toContain("waiting for the gateway's session to work again");
    // Only the first was tried; the second waits behind it untried.
    expect(
      waha.calls.filter((c) => c.path === '/api/sendText' && (c.body as { chatId?: string }).chatId === chat),
    ).toHaveLength(1);
    expect(textsTo(chat)).toEqual([]);

    // Held: not due before their next try, seconds away.
    const heldLater = () =>
      db.outbox.count({
        where: { messageId: { in: held.map((m) => m.id) }, state: 'held', claimedUntil: { gt: new Date() } },
      });
    expect(await heldLater()).toBe(2);

    // Restarted and paired again: the session's webhook says it works, and they are due at once.
    await owner.channels.act({ kind: 'chatapp', operation: 'restart', projectId, channelId });
    await waitFor(async () => waha.session(SESSION)?.status === 'SCAN_QR_CODE', 'a QR code to scan');
    await waha.pair(SESSION, PHONE, 'Pizza');
    await waha.idle();
    expect(await heldLater()).toBe(0);
    const deps = await getEngineDeps();
    await waitFor(async () => {
      await sweepOutbox(deps);
      return textsTo(chat).length === 2;
    }, 'the held messages sent');
    expect(textsTo(chat)).toEqual(['First while down', 'Second while down']);
    await waitFor(
      async () => (await historyOf('79001000007')).every((m) => m.status === 'sent' && m.error === null),
      'both recorded as sent',
    );
    // Once each: another sweep sends nothing more.
    await sweepOutbox(deps);
    expect(textsTo(chat)).toHaveLength(2);
  });

  it('fails a message held longer than BLOCKBOT_CHATAPP_HOLD_HOURS (2 h here)', async () => {
    await waha.fail(SESSION);
    await waha.idle();
    const client = await db.client.findFirstOrThrow({ where: { projectId, platformId: '79001000007' } });
    const target = { id: client.id, projectId, platformId: client.platformId, groupId: PHONE, clientType: 6 };
    const message = { text: 'Too late', attachments: [], buttons: null, blockId: null };
    const early = await chatappChannel.send(target, message, {
      db,
      attempt: 3,
      queuedAt: new Date(Date.now() - 3600_000),
    });
    expect(early).toMatchObject({ delivered: false, retryAt: expect.any(Date) });
    const late = await chatappChannel.send(target, message, {
      db,
      attempt: 9,
      queuedAt: new Date(Date.now() - 2 * 3600_000),
    });
    expect(late.retryAt).toBeUndefined();
    expect(late).toMatchObject({
      delivered: false,
      error: expect.stringContaining('did not work again within 2 h (BLOCKBOT_CHATAPP_HOLD_HOURS)'),
    });
  });
});
