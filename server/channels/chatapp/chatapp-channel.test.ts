import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '@/lib/channels/operation-result';
import { LAST_MESSAGE_KEY } from '@/lib/chatapp/cloud-window';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { takeRateSlot } from '@/server/db/channel-pacing-sql';
import type { PrismaClient } from '@/server/db/client-type';
import { plainSql } from '@/server/db/raw-sql';
import { getEngineDeps } from '@/server/engine/engine';
import type { RouteServer } from '@/server/testing/route-server';
import { waitFor } from '@/server/testing/wait-for';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { sweepChannelUpdates } from '../inbound/pipeline';
import { chatappChannel } from './adapter';
import type { connectCloudChannel } from './channel-service';
import { type ChatappTestApp, useChatappTestApp } from './testing/chatapp-test-app';
import { type FakeCloudApi, type FakeNumber, startFakeCloudApi } from './testing/fake-cloud-api';

/**
 * The chat-app channel on the Cloud API end to end: a number connected through the web app's
 * API against the fake Graph API, the webhook subscribed by the fake's handshake, messages
 * delivered signed to the real route over HTTP and run through the engine, the bot's answers
 * arriving at the fake as Cloud API messages, and the fake's status callbacks moving them.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-chatapp-'));
const HOUR = 3600_000;
let app: ChatappTestApp;
let db: PrismaClient;
let fake: FakeCloudApi;
let routes: RouteServer;
let owner: ChatappTestApp['owner'];
let projectId: number;
let apiKey: string;
/** The fake's clock: real time, unless a test moves it (a client who wrote a day ago). */
let shift = 0;
let number: FakeNumber;
let channelId: number;
let verifyToken: string;

async function connect(n: FakeNumber) {
  const connected = await owner.channels.connect({
    kind: 'chatapp',
    provider: 'cloud',
    projectId,
    phoneNumberId: n.phoneNumberId,
    businessAccountId: n.wabaId,
    accessToken: n.token,
    appSecret: n.appSecret,
  });
  return resultOf<typeof connectCloudChannel>(connected)!;
}

beforeAll(async () => {
  fake = await startFakeCloudApi({ now: () => Date.now() + shift });
  app = await useChatappTestApp(tmp, {
    BLOCKBOT_CHATAPP_RETRY_SECONDS: '20',
    BLOCKBOT_CHATAPP_API_ROOT: `${fake.url}/${fake.version}`,
  });
  ({ db, routes, owner, projectId, apiKey } = app);
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
      { id: 3, kind: 'start', text: 'Got your file: #{attachment_url}', trigger: { alternatives: 'photo' } },
      {
        id: 4,
        kind: 'start',
        text: 'Choose a size',
        trigger: { alternatives: 'sizes' },
        buttons: Array.from({ length: 11 }, (_, i) => ({ type: 'reply' as const, text: `Size ${i + 1}` })),
      },
      { id: 5, kind: 'start', text: 'Size 11 it is', trigger: { alternatives: 'Size 11' } },
    ],
    arrows: [],
  });
  number = fake.addNumber({ displayPhoneNumber: '15550001111', verifiedName: 'Pizza' });
  const connected = await connect(number);
  channelId = connected.id;
  verifyToken = connected.webhook.verifyToken;
  const url = `${routes.url}/api/channels/chatapp/${channelId}`;
  if (!(await fake.setWebhook(number.phoneNumberId, { url, verifyToken })))
    throw new Error('the handshake failed');
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

let nextClient = 79001000000;
const newClient = () => String(nextClient++);

const textsTo = (to: string) =>
  fake.sent(number.phoneNumberId, to).map((m) => {
    const p = m.payload as {
      text?: { body: string };
      interactive?: { body: { text: string } };
      type: string;
    };
    return p.text?.body ?? p.interactive?.body.text ?? p.type;
  });

const historyOf = (platformId: string) =>
  db.message.findMany({
    where: { client: { projectId, platformId, clientType: 6 }, direction: 'out' },
    orderBy: { id: 'asc' },
  });

/** A stored item as a webhook's `value`. */
const itemValue = (i: { metadata: object; contact: object; message: object }) => ({
  metadata: i.metadata,
  contacts: [i.contact],
  messages: [i.message],
});

const callApi = (action: string, params: Record<string, unknown>) => app.callApi(action, params);
/** A message of the bot's with only text. */
const text = (t: string) => ({ text: t, attachments: [], buttons: null, blockId: null });

/**
 * A client who wrote to the number a moment ago as far as we know (their channel state), as a
 * send's target; the fake never saw them write.
 */
async function clientInWindow(platformId = newClient()) {
  const client = await db.client.create({
    data: { projectId, clientType: 6, groupId: '15550001111', platformId },
  });
  await db.clientChannelState.create({
    data: { clientId: client.id, key: LAST_MESSAGE_KEY, value: new Date().toISOString() },
  });
  return { id: client.id, projectId, platformId, groupId: '15550001111', clientType: 6 };
}

describe('connecting a number', () => {
  it('checks the number, subscribes the app, keeps the token and app secret sealed, shows the webhook once', async () => {
    const channel = await db.channel.findUniqueOrThrow({ where: { id: channelId } });
    expect(channel).toMatchObject({ kind: 'chatapp', clientType: 6, groupId: '15550001111', name: 'Pizza' });
    const stored = JSON.stringify(channel.credentials);
    expect(stored).not.toContain(number.token);
    expect(stored).not.toContain(number.appSecret);
    expect(channel.inboundSecret).not.toContain(verifyToken);
    expect(fake.callsOf(new RegExp(`/${number.wabaId}/subscribed_apps$`))).toHaveLength(1);
    const [view] = (await owner.channels.list({ projectId })).filter((c) => c.id === channelId);
    expect(view.chatapp).toMatchObject({
      phoneNumberId: number.phoneNumberId,
      webhookUrl: `${routes.url}/api/channels/chatapp/${channelId}`,
    });
    expect(JSON.stringify(view)).not.toContain(number.token);
  });

  it('refuses a wrong token or number id, naming the field, and a number connected already', async () => {
    const other = fake.addNumber();
    await expect(connect({ ...other, token: 'EAAwrongwrongwrongwrongwrong' })).rejects.toMatchObject({
      message: expect.stringContaining('does not accept this access token'),
    });
    await expect(connect({ ...other, phoneNumberId: '99999999999' })).rejects.toMatchObject({
      message: expect.stringContaining('refused to read the phone number'),
    });
    await expect(connect(number)).rejects.toMatchObject({
      message: '+15550001111 is already connected to this project.',
    });
  });

  it('answers the subscription handshake for its verify token only', async () => {
    const url = `${routes.url}/api/channels/chatapp/${channelId}`;
    expect(await fake.setWebhook(number.phoneNumberId, { url, verifyToken: 'not-the-token' })).toBe(false);
    expect(await fake.setWebhook(number.phoneNumberId, { url, verifyToken })).toBe(true);
  });
});

describe('a client writing to the number', () => {
  it('gets the bot’s answer as reply buttons; the message is read and its status follows the callbacks', async () => {
    const from = newClient();
    await fake.sendInbound(number.phoneNumberId, { from, name: 'Ann', type: 'text', text: 'hello' });
    await waitFor(async () => textsTo(from).length === 1, 'the welcome');
    const [welcome] = fake.sent(number.phoneNumberId, from);
    expect(welcome.payload).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        action: { buttons: [{ reply: { id: 'Yes', title: 'Yes' } }, { reply: { id: 'No' } }] },
      },
    });
    // Marked read, with the typing indicator, as the bot worked on it.
    await fake.waitForCall((c) => (c.body as { status?: string } | undefined)?.status === 'read');
    const client = await db.client.findFirstOrThrow({
      where: { projectId, platformId: from, clientType: 6 },
    });
    expect(client).toMatchObject({ groupId: '15550001111', name: 'Ann' });
    const [out] = await waitFor(async () => {
      const rows = await historyOf(from);
      return rows[0]?.status === 'sent' ? rows : null;
    }, 'the reply recorded as sent');
    expect(out.externalId).toBe(welcome.id);

    await fake.flushStatuses();
    await fake.markRead(welcome.id);
    await waitFor(async () => (await historyOf(from))[0]?.status === 'read', 'the status moved to read');

    // The press comes back as the button's text and follows its block.
    await fake.sendInbound(number.phoneNumberId, { from, type: 'button_reply', id: 'Yes', title: 'Yes' });
    await waitFor(async () => textsTo(from).at(-1) === 'Paid, thank you', 'the answer to the press');
  });

  it('shows more than 10 options as numbered text, and takes a typed number as its option', async () => {
    const from = newClient();
    await fake.sendInbound(number.phoneNumberId, { from, type: 'text', text: 'sizes' });
    await waitFor(async () => textsTo(from).length === 1, 'the sizes');
    expect(textsTo(from)[0]).toContain('\n11. Size 11');
    await fake.sendInbound(number.phoneNumberId, { from, type: 'text', text: '11' });
    await waitFor(async () => textsTo(from).at(-1) === 'Size 11 it is', 'the answer to 11');
    const typed = await db.message.findFirstOrThrow({
      where: { client: { platformId: from }, direction: 'in' },
      orderBy: { id: 'desc' },
    });
    expect(typed.text).toBe('Size 11');
  });

  it('takes a typed number as its option from a client whose profile name changed since they first wrote', async () => {
    const from = newClient();
    await fake.sendInbound(number.phoneNumberId, { from, name: 'Ann', type: 'text', text: 'sizes' });
    await waitFor(async () => textsTo(from).length === 1, 'the sizes');
    await fake.sendInbound(number.phoneNumberId, { from, name: 'Ann B.', type: 'text', text: '11' });
    await waitFor(async () => textsTo(from).at(-1) === 'Size 11 it is', 'the answer to 11');
  });

  it('stores a signed delivery once, and refuses an unsigned or wrongly signed one before storing anything', async () => {
    const from = newClient();
    const before = await db.channelUpdate.count();
    const payload = (id: string) => ({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: number.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550001111', phone_number_id: number.phoneNumberId },
                contacts: [{ profile: { name: 'Bob' }, wa_id: from }],
                messages: [
                  {
                    from,
                    id,
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    type: 'text',
                    text: { body: 'hi' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    expect(
      (await fake.deliver(number.phoneNumberId, payload('wamid.unsigned'), { signature: null })).status,
    ).toBe(401);
    const forged = `sha256=${'0'.repeat(64)}`;
    expect(
      (await fake.deliver(number.phoneNumberId, payload('wamid.forged'), { signature: forged })).status,
    ).toBe(401);
    expect(await db.channelUpdate.count()).toBe(before);

    // Meta repeats a delivery it thinks unanswered: one update, one answer.
    expect((await fake.deliver(number.phoneNumberId, payload('wamid.twice'))).status).toBe(200);
    expect((await fake.deliver(number.phoneNumberId, payload('wamid.twice'))).status).toBe(200);
    await waitFor(async () => textsTo(from).length === 1, 'the answer');
    expect(await db.channelUpdate.count({ where: { channelId, externalId: 'wamid.twice' } })).toBe(1);
    await waitFor(
      async () =>
        (await db.channelUpdate.findFirst({
          where: { externalId: 'wamid.twice', processedAt: { not: null } },
        })) !== null,
      'the update processed',
    );
    expect(textsTo(from)).toHaveLength(1);
  });

  it('answers an update whose process died after storing it once, by the sweeper, in its chat’s order', async () => {
    const from = newClient();
    const item = (id: string, at: number, text: string) => ({
      metadata: { display_phone_number: '15550001111', phone_number_id: number.phoneNumberId },
      contact: { wa_id: from, profile: { name: 'Dee' } },
      message: { from, id, timestamp: String(at), type: 'text', text: { body: text } },
    });
    const now = Math.floor(Date.now() / 1000);
    // Stored by a process that died before running them (its hold expired), the later one first.
    for (const [id, at, text] of [
      ['wamid.late', now, 'Yes'],
      ['wamid.early', now - 1, 'hello'],
    ] as const)
      await db.channelUpdate.create({
        data: {
          channelId,
          externalId: id,
          updateId: BigInt(at),
          chat: from,
          payload: item(id, at, text),
          claimToken: 'a-process-that-died',
          claimedUntil: new Date(Date.now() - 1000),
          attempts: 1,
        },
      });
    await sweepChannelUpdates(await getEngineDeps());
    await waitFor(async () => textsTo(from).length === 2, 'both answers');
    expect(textsTo(from)).toEqual(['Welcome! Pay now?', 'Paid, thank you']);
    // Processed once: another pass, or Meta's repeat of one of them, answers nothing more.
    await sweepChannelUpdates(await getEngineDeps());
    await fake.deliver(number.phoneNumberId, {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: number.wabaId,
          changes: [
            {
              field: 'messages',
              value: { messaging_product: 'whatsapp', ...itemValue(item('wamid.late', now, 'Yes')) },
            },
          ],
        },
      ],
    });
    expect(await db.channelUpdate.count({ where: { channelId, chat: from, processedAt: null } })).toBe(0);
    expect(textsTo(from)).toHaveLength(2);
  });

  it('downloads a photo through the Graph API and keeps it as the client’s file', async () => {
    const from = newClient();
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    await fake.sendInbound(number.phoneNumberId, {
      from,
      type: 'image',
      bytes,
      mimeType: 'image/png',
      caption: 'photo',
    });
    await waitFor(
      async () => textsTo(from).some((t) => t.startsWith('Got your file: ')),
      'the answer with the file',
    );
    const file = await db.storedFile.findFirstOrThrow({ where: { client: { platformId: from } } });
    expect(file).toMatchObject({ mimeType: 'image/png', size: bytes.length });
    expect(textsTo(from).find((t) => t.startsWith('Got your file'))).toContain(`/api/files/${file.id}/`);
  });
});

describe('the 24-hour window', () => {
  it('sends nothing free-form to a client who wrote more than a day ago: the message fails with why, or goes as the template', async () => {
    const from = newClient();
    shift = -25 * HOUR;
    try {
      await fake.sendInbound(number.phoneNumberId, { from, type: 'text', text: 'an old hello' });
      await waitFor(async () => (await historyOf(from))[0]?.status === 'failed', 'the welcome refused');
    } finally {
      shift = 0;
    }
    const [refused] = await historyOf(from);
    expect(refused.error).toContain('131047');
    expect(fake.sent(number.phoneNumberId, from)).toHaveLength(0);

    fake.addTemplate(number.wabaId, { name: 'follow_up', language: 'en_US', bodyParams: 1 });
    await owner.channels.update({
      kind: 'chatapp',
      projectId,
      channelId,
      windowTemplate: { name: 'follow_up', language: 'en_US', parameters: ['{message}'] },
    });
    const sent = await callApi('chatapp_message', {
      chatapp_bot_id: '+1 555 000 1111',
      phone: from,
      message: 'Your order is ready',
    });
    expect(sent.status).toBe(200);
    await waitFor(async () => fake.sent(number.phoneNumberId, from).length === 1, 'the template');
    expect(fake.sent(number.phoneNumberId, from)[0].payload).toMatchObject({
      type: 'template',
      template: {
        name: 'follow_up',
        language: { code: 'en_US' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Your order is ready' }] }],
      },
    });
    await owner.channels.update({ kind: 'chatapp', projectId, channelId, windowTemplate: null });
  });

  const messageCalls = (to: string) =>
    fake
      .callsOf(`/${fake.version}/${number.phoneNumberId}/messages`)
      .filter((c) => (c.body as { to?: string }).to === to)
      .map((c) => [(c.body as { type: string }).type, c.status]);
  async function withTemplate(run: () => Promise<void>) {
    fake.addTemplate(number.wabaId, { name: 'follow_up', language: 'en_US', bodyParams: 1 });
    await owner.channels.update({
      kind: 'chatapp',
      projectId,
      channelId,
      windowTemplate: { name: 'follow_up', language: 'en_US', parameters: ['{message}'] },
    });
    try {
      await run();
    } finally {
      await owner.channels.update({ kind: 'chatapp', projectId, channelId, windowTemplate: null });
    }
  }

  it('after a 131047 answered at once, sends that message and the next as the template, until the client writes', async () => {
    const target = await clientInWindow();
    fake.reengagement = 'sync';
    await withTemplate(async () => {
      try {
        expect(await chatappChannel.send(target, text('Your order is ready'), { db })).toMatchObject({
          delivered: true,
        });
        expect(await chatappChannel.send(target, text('It is on its way'), { db })).toMatchObject({
          delivered: true,
        });
      } finally {
        fake.reengagement = 'status';
      }
      // One free-form try, refused; then templates only.
      expect(messageCalls(target.platformId)).toEqual([
        ['text', 400],
        ['template', 200],
        ['template', 200],
      ]);
      // The client writes (a few seconds later: the messenger's times are whole seconds): the
      // window is open again, the bot's answer goes free-form.
      shift = 3000;
      try {
        await fake.sendInbound(number.phoneNumberId, {
          from: target.platformId,
          type: 'text',
          text: 'thanks',
        });
      } finally {
        shift = 0;
      }
      await waitFor(
        async () => fake.sent(number.phoneNumberId, target.platformId).some((m) => m.type === 'interactive'),
        'the welcome as reply buttons',
      );
    });
  });

  it('after a 131047 reported later as a failed status, sends the next message as the template', async () => {
    const target = await clientInWindow();
    await withTemplate(async () => {
      const message = (m: string) =>
        callApi('chatapp_message', { chatapp_bot_id: '15550001111', phone: target.platformId, message: m });
      expect((await message('Hello again')).status).toBe(200);
      const [first] = await waitFor(async () => {
        const rows = await historyOf(target.platformId);
        return rows[0]?.status === 'sent' ? rows : null;
      }, 'the free-form message accepted');
      await fake.flushStatuses();
      await waitFor(
        async () =>
          (await db.channelUpdate.findFirst({
            where: { channelId, externalId: `${first.externalId}:failed`, processedAt: { not: null } },
          })) !== null,
        'the failed status processed',
      );
      expect((await db.message.findUniqueOrThrow({ where: { id: first.id } })).error).toContain('131047');
      expect((await message('Are you there?')).status).toBe(200);
      await waitFor(
        async () => fake.sent(number.phoneNumberId, target.platformId).length === 2,
        'the second message',
      );
      expect(fake.sent(number.phoneNumberId, target.platformId).map((m) => m.type)).toEqual([
        'text',
        'template',
      ]);
    });
  });

  it('sends a multi-line message outside the window as the template, flattened, and says in the history what it left out', async () => {
    const from = newClient();
    await withTemplate(async () => {
      const sent = await callApi('chatapp_message', {
        chatapp_bot_id: '15550001111',
        phone: from,
        message: 'Your order:\n- pizza\n- cola\tx2      (large)',
        attachment_type: 'file',
        attachment_url: 'https://cdn.example/files/receipt.pdf',
        buttons: [{ text: 'Track' }, { text: 'Cancel' }],
      });
      expect(sent.status).toBe(200);
      const [row] = await waitFor(async () => {
        const rows = await historyOf(from);
        return rows[0] && rows[0].status !== 'queued' ? rows : null;
      }, 'the message sent');
      expect(row).toMatchObject({
        status: 'sent',
        delivered: true,
        error:
          'sent as the window template follow_up, without its buttons (Track, Cancel) and its attachment (receipt.pdf)',
      });
      expect(fake.sent(number.phoneNumberId, from)[0].payload).toMatchObject({
        type: 'template',
        template: {
          components: [
            { type: 'body', parameters: [{ type: 'text', text: 'Your order: - pizza - cola x2 (large)' }] },
          ],
        },
      });
    });
  });

  it('keeps when the client last wrote in their channel state, not in their variables', async () => {
    const from = newClient();
    await fake.sendInbound(number.phoneNumberId, { from, type: 'text', text: 'hi' });
    const client = await waitFor(
      () =>
        db.client.findFirst({
          where: { projectId, platformId: from },
          include: { channelStates: true, variables: true },
        }),
      'the client',
    );
    await waitFor(
      async () =>
        (await db.clientChannelState.count({ where: { clientId: client.id, key: LAST_MESSAGE_KEY } })) === 1,
      'the state',
    );
    expect(client.variables.map((v) => v.name)).not.toContain(LAST_MESSAGE_KEY);
  });
});

describe('failures and limits', () => {
  it('records a number that cannot receive messages as failed with the messenger’s error (131026)', async () => {
    const from = newClient();
    fake.blockRecipient(from);
    await fake.sendInbound(number.phoneNumberId, { from, type: 'text', text: 'hi' });
    await waitFor(async () => (await historyOf(from))[0]?.status === 'sent', 'accepted');
    await fake.flushStatuses();
    const [row] = await waitFor(async () => {
      const rows = await historyOf(from);
      return rows[0]?.status === 'failed' ? rows : null;
    }, 'the failure reported');
    expect(row.error).toContain('131026');
  });

  it('spaces a number’s sends to its throughput: 100 at once take at least 99 intervals, all delivered', async () => {
    // That no two leave too close whatever the event loop does is send-spacing.test.ts's; here,
    // that the adapter sends through it (a stalled test machine only makes this slower).
    const clients = await Promise.all(Array.from({ length: 100 }, () => clientInWindow()));
    const started = performance.now();
    const results = await Promise.all(
      clients.map((c) =>
        chatappChannel.send(c, { text: 'Sale today', attachments: [], buttons: null, blockId: null }, { db }),
      ),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual((99 * 1000) / 72);
    expect(results.every((r) => r.delivered)).toBe(true);
  });

  it('keeps the slots another process took for the number: a send waits for the number’s next free slot', async () => {
    // Another process's sends hold the number's slots for the next 1.5 s (on the database's clock).
    await db.$executeRaw`INSERT INTO "ChannelPacing" ("channelId", "nextAt", chats)
      VALUES (${channelId}, extract(epoch from clock_timestamp()) * 1000 + 1500, '{}')
      ON CONFLICT ("channelId") DO UPDATE SET "nextAt" = EXCLUDED."nextAt"`;
    const started = performance.now();
    const result = await chatappChannel.send(await clientInWindow(), text('After the others'), { db });
    expect(result.delivered).toBe(true);
    // Not before the slot: its wait is a lower bound, whatever the machine's speed.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
  });

  it('tries again after a 502 or a rate limit, and never after a refusal', async () => {
    const target = await clientInWindow();
    let failures = 1;
    fake.intercept = () => (failures-- > 0 ? 'bad_gateway' : 'process');
    try {
      const ok = await chatappChannel.send(
        target,
        { text: 'after a 502', attachments: [], buttons: null, blockId: null },
        { db },
      );
      expect(ok).toMatchObject({ delivered: true, externalId: expect.stringMatching(/^wamid\./) });
    } finally {
      fake.intercept = null;
    }
    // A number whose throughput is 1 a second: the second send is refused with 130429, then goes.
    const limits = fake.limits;
    fake.limits = limits && { ...limits, perSecond: 1 };
    const callsBefore = fake.calls.length;
    try {
      const both = await Promise.all(
        ['first', 'second'].map((text) =>
          chatappChannel.send(target, { text, attachments: [], buttons: null, blockId: null }, { db }),
        ),
      );
      expect(both.map((r) => r.delivered)).toEqual([true, true]);
    } finally {
      fake.limits = limits;
    }
    expect(fake.calls.slice(callsBefore).some((c) => JSON.stringify(c.answer).includes('130429'))).toBe(true);
    const tooLong = await chatappChannel.send(
      target,
      { text: 'x', attachments: [{ type: 'image', url: 'not a url' }], buttons: null, blockId: null },
      { db },
    );
    expect(tooLong.delivered).toBe(false);
  });

  it('holds a send the Cloud API keeps failing (tried again later, one call a try), and fails it past BLOCKBOT_CHATAPP_HOLD_HOURS', async () => {
    const target = await clientInWindow();
    let tries = 0;
    fake.intercept = () => {
      tries++;
      return 'bad_gateway';
    };
    const hour = 3600_000;
    try {
      // A held try (attempt 1) is already late: one call, then held again, not retried in the process.
      const again = await chatappChannel.send(target, text('Still down'), {
        db,
        attempt: 1,
        queuedAt: new Date(Date.now() - hour),
      });
      expect(again).toMatchObject({
        delivered: false,
        retryAt: expect.any(Date),
        error: expect.stringContaining('the Cloud API could not take it yet (tried again later): text:'),
      });
      expect(tries).toBe(1);
      const late = await chatappChannel.send(target, text('Still down'), {
        db,
        attempt: 9,
        queuedAt: new Date(Date.now() - 25 * hour),
      });
      expect(late.retryAt).toBeUndefined();
      expect(late).toMatchObject({
        delivered: false,
        error: expect.stringContaining(
          'the Cloud API did not take it within 24 h (BLOCKBOT_CHATAPP_HOLD_HOURS)',
        ),
      });
    } finally {
      fake.intercept = null;
    }
  });

  it('slows the number after a throughput limit (130429), for every process: refused sends stay few, all are delivered', async () => {
    const clients = await Promise.all(Array.from({ length: 30 }, () => clientInWindow()));
    const limits = fake.limits;
    fake.limits = limits && { ...limits, perSecond: 5 };
    const callsBefore = fake.calls.length;
    try {
      const results = await Promise.all(
        clients.map((c) => chatappChannel.send(c, text('Sale today'), { db })),
      );
      expect(results.every((r) => r.delivered)).toBe(true);
    } finally {
      fake.limits = limits;
    }
    // The first sends took their slots at the usual pace before any answer (about 25 refused
    // then); after them the number keeps below its limit. Without the slowdown: about 100.
    const refused = fake.calls.slice(callsBefore).filter((c) => c.status === 429);
    expect(refused.length).toBeLessThan(60);
    // The pace is the number's, in the database: another process's next slot is as far apart.
    const pacing = await db.channelPacing.findUniqueOrThrow({ where: { channelId } });
    expect(pacing.slowMs).toBeGreaterThanOrEqual(1000 / 5);
    const usual = 1000 / 72;
    const nextSlot = async () =>
      (await plainSql(db).run(takeRateSlot, { channelId, rateMs: usual }))[0].rateMs;
    expect(await nextSlot()).toBe(pacing.slowMs);
    // It recovers: each minute without a limit halves it, down to the usual pace.
    await db.$executeRaw`UPDATE "ChannelPacing" SET "slowedAt" = "slowedAt" - 60000 WHERE "channelId" = ${channelId}`;
    expect(await nextSlot()).toBe(Math.max(usual, (pacing.slowMs ?? 0) / 2));
    await db.$executeRaw`UPDATE "ChannelPacing" SET "slowedAt" = "slowedAt" - 600000 WHERE "channelId" = ${channelId}`;
    expect(await nextSlot()).toBeCloseTo(usual, 6);
  });
});

describe('the interface’s chat-app calls', () => {
  it('chatapp_callback starts the bot for a number; an unknown bot id is a 404', async () => {
    const phone = '+1 (555) 010-2030';
    const started = await callApi('chatapp_callback', {
      phone,
      bot_id: '15550001111',
      message: 'signed_up',
      name: 'Eve',
    });
    expect(started.status).toBe(200);
    const client = await db.client.findFirstOrThrow({ where: { projectId, platformId: '15550102030' } });
    expect(client).toMatchObject({ clientType: 6, groupId: '15550001111' });
    const unknown = await callApi('chatapp_callback', { phone, bot_id: '4242', message: 'x' });
    expect(unknown).toMatchObject({ status: 404, body: { message: expect.stringContaining('4242') } });
  });

  it('chatapp_client_id finds a number in any format; check_chatapp says the Cloud API cannot look numbers up', async () => {
    const found = await fetch(
      `${app.apiUrl}/api/${apiKey}/chatapp_client_id?phone=${encodeURIComponent('15550102030@c.us')}`,
    );
    expect(found.status).toBe(200);
    const missing = await fetch(`${app.apiUrl}/api/${apiKey}/chatapp_client_id?phone=15550000000`);
    expect(missing.status).toBe(404);
    const check = await callApi('check_chatapp', { phone: '+1 555 010 2030' });
    expect(check).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('cannot look numbers up') },
    });
  });
});
