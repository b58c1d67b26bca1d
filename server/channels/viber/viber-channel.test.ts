import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '@/lib/channels/operation-result';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { broadcastDispatchJob, broadcastSendJob } from '@/server/broadcasts/broadcast-jobs';
import type { PrismaClient } from '@/server/db/client-type';
import { getEngineDeps } from '@/server/engine/engine';
import { sweepOutbox } from '@/server/engine/outbox';
import { startWorkers } from '@/server/jobs/jobs';
import { waitFor } from '@/server/testing/wait-for';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { type ChatappTestApp, useChatappTestApp } from '../chatapp/testing/chatapp-test-app';
import type { connectViberChannel } from './channel-service';
import { SUBSCRIBED_KEY } from './subscription';
import { type FakeBot, type FakeUser, type FakeViber, startFakeViber } from './testing/fake-viber';

/**
 * Viber end to end: a bot connected through the web app's API against the fake REST Bot API
 * (the token checked, the webhook set and checked by the fake's call), callbacks delivered
 * signed to the real route over HTTP and run through the engine, the bot's answers arriving at
 * the fake as send_message bodies (keyboards, numbered text, files), receipts moving the
 * status, unsubscribing stopping sends, the welcome message, connected_channels and a
 * broadcast over the public API, a bad signature storing nothing, and held sends through
 * Viber's rate limit and an outage.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-viber-'));
const HOUR = 3600_000;
let app: ChatappTestApp;
let db: PrismaClient;
let fake: FakeViber;
let owner: ChatappTestApp['owner'];
let projectId: number;
let bot: FakeBot;
let channelId: number;
let photoUrl: string;
let pdfUrl: string;

const connect = async (token: string) =>
  resultOf<typeof connectViberChannel>(await owner.channels.connect({ kind: 'viber', projectId, token }))!;

beforeAll(async () => {
  fake = await startFakeViber();
  app = await useChatappTestApp(tmp, {
    BLOCKBOT_VIBER_API_URL: fake.apiUrl,
    BLOCKBOT_VIBER_HOLD_HOURS: '24',
  });
  ({ db, owner, projectId } = app);
  photoUrl = fake.addFile(
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]),
    'image/png',
    'menu.png',
  );
  pdfUrl = fake.addFile(new TextEncoder().encode('%PDF-1.4 price list'), 'application/pdf', 'prices.pdf');
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
        ],
      },
      { id: 2, kind: 'start', text: 'Paid, thank you', trigger: { alternatives: 'Yes' } },
      {
        id: 3,
        kind: 'start',
        text: 'Choose a size',
        trigger: { alternatives: 'sizes' },
        buttons: Array.from({ length: 25 }, (_, i) => ({ type: 'reply' as const, text: `Size ${i + 1}` })),
      },
      { id: 4, kind: 'start', text: 'Size 25 it is', trigger: { alternatives: 'Size 25' } },
      {
        id: 5,
        kind: 'start',
        text: 'Our menu and prices',
        trigger: { alternatives: 'menu' },
        attachments: [
          { type: 'image', url: photoUrl },
          { type: 'file', url: pdfUrl },
        ],
      },
      { id: 6, kind: 'start', text: 'Hello from the ad', trigger: { alternatives: 'ad-42' } },
    ],
    arrows: [],
  });
  bot = fake.addBot({ name: 'Pizza Place Viber Bot With A Long Name', uri: 'PizzaPlace' });
  channelId = (await connect(bot.token)).id;
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const textsTo = (u: FakeUser) => fake.sent(bot, u).map((s) => s.body.text ?? s.body.type);

const historyOf = (u: FakeUser, direction: 'in' | 'out' = 'out') =>
  db.message.findMany({
    where: { client: { projectId, platformId: u.id, clientType: 2 }, direction },
    orderBy: { id: 'asc' },
  });

const clientOf = (u: FakeUser) =>
  waitFor(
    () =>
      db.client.findFirst({
        where: { projectId, clientType: 2, platformId: u.id },
        include: { channelStates: true },
      }),
    'the client',
  );

describe('connecting a bot', () => {
  it('checks the token, names the channel by the bot’s URI, keeps the token sealed, sets the webhook', async () => {
    const channel = await db.channel.findUniqueOrThrow({ where: { id: channelId } });
    expect(channel).toMatchObject({ kind: 'viber', clientType: 2, groupId: 'pizzaplace', name: bot.name });
    expect(JSON.stringify(channel.credentials)).not.toContain(bot.token);
    expect(bot.webhook).toBe(`${app.routes.url}/api/channels/viber/${channelId}`);
    expect(bot.eventTypes).toEqual(expect.arrayContaining(['delivered', 'seen', 'failed', 'unsubscribed']));
    const [view] = (await owner.channels.list({ projectId })).filter((c) => c.id === channelId);
    expect(view.viber).toEqual({ accountId: bot.accountId, webhookUrl: bot.webhook });
    expect(JSON.stringify(view)).not.toContain(bot.token);
  });

  it('refuses a token Viber does not accept naming the field, and a bot connected already', async () => {
    await expect(connect('0123456789abcdef-0123456789abcdef-0123456789abcdef')).rejects.toMatchObject({
      message: expect.stringContaining('Viber does not accept this token (2 invalidAuthToken)'),
    });
    await expect(connect(bot.token)).rejects.toMatchObject({
      message: 'The Viber bot pizzaplace is already connected to this project.',
    });
    expect(await db.channel.count({ where: { kind: 'viber' } })).toBe(1);
  });
});

describe('a person talking to the bot', () => {
  it('gets the answer with a keyboard; a press follows its arrow; receipts move the status', async () => {
    const ann = fake.addUser('Ann Smith');
    expect(await fake.userWrites(bot, ann, { type: 'text', text: 'hello' })).toBe(200);
    await waitFor(async () => textsTo(ann).length === 1, 'the welcome');
    const [welcome] = fake.sent(bot, ann);
    expect(welcome.body).toMatchObject({
      receiver: ann.id,
      type: 'text',
      text: 'Welcome! Pay now?',
      sender: { name: 'Pizza Place Viber Bot With A' },
      keyboard: {
        Type: 'keyboard',
        Buttons: [
          { ActionType: 'reply', ActionBody: 'Yes', Text: 'Yes', Columns: 6 },
          { ActionType: 'reply', ActionBody: 'No', Text: 'No', Columns: 6 },
        ],
      },
    });
    const client = await clientOf(ann);
    expect(client).toMatchObject({ groupId: 'pizzaplace', name: 'Ann Smith' });
    expect(client.channelStates.map((s) => [s.key, s.value])).toContainEqual([SUBSCRIBED_KEY, 'yes']);
    const [out] = await waitFor(async () => {
      const rows = await historyOf(ann);
      return rows[0]?.status === 'sent' ? rows : null;
    }, 'the answer recorded as sent');
    // The 64-bit token whole: one more or less would be another message.
    expect(out.externalId).toBe(welcome.token);

    await fake.report(bot, ann, welcome.token, 'delivered');
    await waitFor(async () => (await historyOf(ann))[0]?.status === 'delivered', 'delivered');
    await fake.report(bot, ann, welcome.token, 'seen');
    await waitFor(async () => (await historyOf(ann))[0]?.status === 'read', 'read');

    // A keyboard press arrives as the button's ActionBody.
    await fake.userWrites(bot, ann, { type: 'text', text: 'Yes' });
    await waitFor(async () => textsTo(ann).at(-1) === 'Paid, thank you', 'the answer to the press');
  });

  it('shows 25 options as numbered text, and takes a typed number as its option', async () => {
    const bob = fake.addUser();
    await fake.userWrites(bot, bob, { type: 'text', text: 'sizes' });
    await waitFor(async () => textsTo(bob).length === 1, 'the sizes');
    const [sizes] = fake.sent(bot, bob);
    expect(sizes.body.text).toContain('\n25. Size 25');
    expect(sizes.body.keyboard).toBeUndefined();
    await fake.userWrites(bot, bob, { type: 'text', text: '25' });
    await waitFor(async () => textsTo(bob).at(-1) === 'Size 25 it is', 'the answer to 25');
    expect((await historyOf(bob, 'in'))[1].text).toBe('Size 25');
  });

  it('keeps a picture the person sends as the client’s file, and sends a picture and a file with its size', async () => {
    const cat = fake.addUser();
    const photo = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    await fake.userWrites(bot, cat, {
      type: 'picture',
      text: 'menu',
      media: fake.addFile(photo, 'image/jpeg', 'photo.jpg'),
    });
    const [incoming] = await waitFor(async () => {
      const rows = await historyOf(cat, 'in');
      return rows.length ? rows : null;
    }, 'the picture stored');
    const file = await db.storedFile.findFirstOrThrow({ where: { client: { platformId: cat.id } } });
    expect(file).toMatchObject({ mimeType: 'image/jpeg', size: photo.length, name: 'photo.jpg' });
    expect(incoming.attachments).toEqual([
      { type: 'image', url: expect.stringContaining(`/api/files/${file.id}/`) },
    ]);

    await waitFor(async () => fake.sent(bot, cat).length === 3, 'the menu');
    expect(fake.sent(bot, cat).map((s) => s.body)).toEqual([
      expect.objectContaining({ type: 'picture', media: photoUrl, text: '' }),
      expect.objectContaining({ type: 'file', media: pdfUrl, file_name: 'prices.pdf', size: 19 }),
      expect.objectContaining({ type: 'text', text: 'Our menu and prices' }),
    ]);
  });

  it('stops sending to a person who unsubscribed, with the reason, untried; their next message subscribes them again', async () => {
    const dan = fake.addUser();
    await fake.userWrites(bot, dan, { type: 'text', text: 'Yes' });
    await waitFor(async () => textsTo(dan).length === 1, 'the answer');
    await fake.userUnsubscribes(bot, dan);
    const client = await clientOf(dan);
    await waitFor(
      async () =>
        (await db.clientChannelState.findFirst({ where: { clientId: client.id, key: SUBSCRIBED_KEY } }))
          ?.value === 'no',
      'marked unsubscribed',
    );
    const calls = fake.calls.length;
    const sent = await app.callApi('message', { client_id: client.id, message: 'Come back!' });
    expect(sent.status).toBe(200);
    const refused = await waitFor(
      () => db.message.findFirst({ where: { clientId: client.id, text: 'Come back!', status: 'failed' } }),
      'the message failed',
    );
    expect(refused.error).toContain('not subscribed to the Viber bot');
    expect(fake.calls.slice(calls).filter((c) => c.method === 'send_message')).toEqual([]);
    expect(await db.outbox.count({ where: { messageId: refused.id, state: 'held' } })).toBe(0);

    await fake.userWrites(bot, dan, { type: 'text', text: 'Yes' });
    await waitFor(async () => textsTo(dan).length === 2, 'answered again');
  });

  it('answers a conversation opened by someone new with the bot’s first message as the welcome; a deep link’s context is their message', async () => {
    const eve = fake.addUser('Eve');
    const opened = await fake.userOpens(bot, eve);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      type: 'text',
      text: 'Welcome! Pay now?',
      sender: { name: 'Pizza Place Viber Bot With A' },
      keyboard: { Buttons: [{ ActionBody: 'Yes' }, { ActionBody: 'No' }] },
    });
    expect(opened.body.receiver).toBeUndefined();
    expect(fake.sent(bot, eve)).toEqual([]);
    const [incoming] = await historyOf(eve, 'in');
    expect(incoming.text).toBe('conversation_started');

    const fay = fake.addUser();
    expect((await fake.userOpens(bot, fay, 'ad-42')).body).toMatchObject({ text: 'Hello from the ad' });
  });
});

describe('the webhook', () => {
  it('refuses an unsigned or wrongly signed callback before storing anything, and stores a signed one once', async () => {
    const gus = fake.addUser();
    const body = (token: string) =>
      `{"event":"message","timestamp":${Date.now()},"message_token":${token},"sender":{"id":"${gus.id}","name":"Gus"},"message":{"type":"text","text":"hi"}}`;
    const before = await db.channelUpdate.count();
    expect((await fake.deliver(bot, body('6000000000000000001'), { signature: null })).status).toBe(401);
    expect((await fake.deliver(bot, body('6000000000000000002'), { signature: '0'.repeat(64) })).status).toBe(
      401,
    );
    const other = (await import('node:crypto'))
      .createHmac('sha256', 'another-token')
      .update(body('6000000000000000003'))
      .digest('hex');
    expect((await fake.deliver(bot, body('6000000000000000003'), { signature: other })).status).toBe(401);
    expect(await db.channelUpdate.count()).toBe(before);
    expect(await db.client.count({ where: { platformId: gus.id } })).toBe(0);

    // Tokens one apart are two messages; the same one twice is one.
    const sameBody = body('6000000000000000004');
    expect((await fake.deliver(bot, sameBody)).status).toBe(200);
    expect((await fake.deliver(bot, sameBody)).status).toBe(200);
    expect((await fake.deliver(bot, body('6000000000000000005'))).status).toBe(200);
    await waitFor(
      async () =>
        (await db.channelUpdate.count({ where: { channelId, externalId: { startsWith: 'message:60' } } })) ===
        2,
      'two updates stored',
    );
    expect(
      (await db.channelUpdate.findMany({ where: { channelId, externalId: { startsWith: 'message:60' } } }))
        .map((u) => u.externalId)
        .sort(),
    ).toEqual(['message:6000000000000000004', 'message:6000000000000000005']);
  });
});

describe('the public API', () => {
  it('lists the bot in connected_channels and broadcasts to its clients', async () => {
    const listed = await app.callApi('connected_channels', {});
    expect(JSON.stringify(listed.body)).toContain('"group_id":"pizzaplace"');
    expect(listed.body).toMatchObject({ status: 'success' });
    expect(JSON.stringify(listed.body)).toContain('"client_type":2');

    await startWorkers([broadcastSendJob, broadcastDispatchJob] as never);
    const [hal, ida] = [fake.addUser(), fake.addUser()];
    for (const u of [hal, ida]) {
      await fake.userWrites(bot, u, { type: 'text', text: 'Yes' });
      await waitFor(async () => textsTo(u).length === 1, 'the answer');
    }
    const ids = await Promise.all([hal, ida].map(async (u) => (await clientOf(u)).id));
    const started = await app.callApi('broadcast', { message: 'Open on Sunday', clients: ids, shift: 0 });
    expect(started.body).toMatchObject({ recipients: 2 });
    for (const u of [hal, ida])
      await waitFor(async () => textsTo(u).at(-1) === 'Open on Sunday', 'the broadcast');
  });
});

describe('Viber in trouble', () => {
  const timePasses = async (...messageIds: bigint[]) => {
    await db.outbox.updateMany({
      where: { messageId: { in: messageIds }, kind: 'send', state: 'held' },
      data: { claimedUntil: new Date(Date.now() - 1000) },
    });
    await sweepOutbox(await getEngineDeps());
  };
  const heldAnswers = (u: FakeUser, count: number) =>
    waitFor(async () => {
      const rows = await historyOf(u);
      return rows.length === count && rows.every((r) => r.status === 'queued' && r.error) ? rows : null;
    }, `${count} answers held`);

  it('holds the answers through the rate limit (12) and a 503, in order, and sends them when Viber is back', async () => {
    const jon = fake.addUser();
    fake.trouble = { status: 12, times: Number.POSITIVE_INFINITY };
    try {
      await fake.userWrites(bot, jon, { type: 'text', text: 'Yes' });
      const [first] = await heldAnswers(jon, 1);
      expect(first.error).toBe('Viber could not take it yet (tried again later): 12 tooManyRequests');
      const row = await db.outbox.findFirstOrThrow({ where: { messageId: first.id, kind: 'send' } });
      expect(row.state).toBe('held');
      expect(row.claimedUntil?.getTime()).toBeGreaterThan(Date.now() + 5_000);
      await fake.userWrites(bot, jon, { type: 'text', text: 'sizes' });
      const [, second] = await heldAnswers(jon, 2);

      fake.trouble = { http: 503, times: Number.POSITIVE_INFINITY };
      await timePasses(first.id);
      await waitFor(
        async () => (await historyOf(jon))[0].error?.includes('HTTP 503') === true,
        'held again by the outage',
      );

      fake.trouble = null;
      await timePasses(first.id, second.id);
      await waitFor(async () => (await historyOf(jon)).every((m) => m.status === 'sent'), 'both sent');
      expect(textsTo(jon)).toEqual(['Paid, thank you', expect.stringContaining('25. Size 25')]);
    } finally {
      fake.trouble = null;
    }
  });

  it('fails a send Viber could not take within BLOCKBOT_VIBER_HOLD_HOURS, naming the hours; a refused token is the channel’s last error', async () => {
    const kim = fake.addUser();
    fake.trouble = { status: 12, times: Number.POSITIVE_INFINITY };
    try {
      await fake.userWrites(bot, kim, { type: 'text', text: 'Yes' });
      const [held] = await heldAnswers(kim, 1);
      await db.outbox.updateMany({
        where: { messageId: held.id, kind: 'send' },
        data: { createdAt: new Date(Date.now() - 25 * HOUR) },
      });
      await timePasses(held.id);
      const failed = await waitFor(async () => {
        const [row] = await historyOf(kim);
        return row?.status === 'failed' ? row : null;
      }, 'the answer failed');
      expect(failed.error).toBe('Viber could not take it within 24 hours: 12 tooManyRequests');
    } finally {
      fake.trouble = null;
    }

    fake.trouble = { status: 2, times: 1 };
    const lee = fake.addUser();
    await fake.userWrites(bot, lee, { type: 'text', text: 'Yes' });
    await waitFor(async () => (await historyOf(lee))[0]?.status === 'failed', 'refused');
    expect((await historyOf(lee))[0].error).toBe('Viber refused it: 2 invalidAuthToken');
    expect((await db.channel.findUniqueOrThrow({ where: { id: channelId } })).lastError).toContain(
      'Viber refused the token',
    );
  });
});
