import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { broadcastSendJob, startBroadcast } from '@/server/broadcasts/broadcast-jobs';
import type { ChannelAdapter } from '@/server/channels/channel-adapter';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import { handleEvent } from '@/server/engine/handle-event';
import { sweepOutbox } from '@/server/engine/outbox';
import { startWorkers } from '@/server/jobs/jobs';
import { createProject } from '@/server/projects/project-service';
import { waitFor } from '@/server/testing/wait-for';
import { tgChannel } from './adapter';
import { connectTgChannel } from './channel-service';
import type { FakeBot, FakeBotApi, InterceptedRequest, Interception } from './testing/fake-bot-api';
import { startFakeBotApi } from './testing/fake-bot-api';

/**
 * How the tg channel delivers when the Bot API misbehaves or is busy, against the fake
 * enforcing the messenger's limits (30 a second per bot, 1 a second per chat): 5xx answers and
 * lost connections tried again, the limits kept however late the messenger counts a send and
 * however many copies of the channel's module one process loaded, broadcasts of several parts
 * at the bot's rate, and a message's parts never sent twice after a crash.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-tg-delivery-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let fake: FakeBotApi;
let bot: FakeBot;
let projectId: number;

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  // Sends the Bot API cannot take are tried for 5 s here (30 by default).
  process.env.BLOCKBOT_TG_RETRY_SECONDS = '5';
  fake = await startFakeBotApi();
  process.env.BLOCKBOT_TG_API_ROOT = fake.url;
  process.env.BLOCKBOT_BASE_URL = 'http://127.0.0.1:9';
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  projectId = (await createProject(db, { name: 'tg delivery', plan: 'business' })).id;
  bot = fake.addBot({ username: 'delivery_bot' });
  await connectTgChannel(db, projectId, { token: bot.token, mode: 'webhook' }, async () => {});
  await startWorkers([broadcastSendJob] as never);
});
afterAll(async () => {
  await app?.dispose();
  await fake?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

let nextChat = 10_000;
const tgClient = async () => {
  const platformId = String(nextChat++);
  const row = await db.client.create({
    data: { projectId, clientType: 1, groupId: 'delivery_bot', platformId },
  });
  return { id: row.id, projectId, platformId, groupId: 'delivery_bot', clientType: 1 };
};
const text = (t: string) => ({ text: t, attachments: [], buttons: null, blockId: null });
/** A photo and a text too long for its caption: two Bot API sends, sendPhoto then sendMessage. */
const photoAndText = (t: string) => ({
  text: `${t} ${'x'.repeat(1500)}`,
  attachments: [{ type: 'image' as const, url: 'https://cdn.example/sale.png' }],
  buttons: null,
  blockId: null,
});
const callsTo = (chat: string) =>
  fake.calls.filter((c) => c.token === bot.token && c.params.chat_id === chat);
const limited = (from = 0) => fake.calls.slice(from).filter((c) => c.token === bot.token && c.status === 429);

/** Intercepts requests matching `match` as `fates` says, one by one, then processes them. */
function intercept(match: (r: InterceptedRequest) => boolean, ...fates: Interception[]) {
  const seen: InterceptedRequest[] = [];
  fake.intercept = (request) => {
    if (!match(request)) return 'process';
    seen.push(request);
    return fates.shift() ?? 'process';
  };
  return seen;
}
/** A send the messenger took, answered with the id it gave the message (its last part's). */
const SENT = { delivered: true, externalId: expect.stringMatching(/^\d+$/) };

const forChat = (chat: string) => (r: InterceptedRequest) => String(r.params.chat_id) === chat;

describe('a send the Bot API could not take', () => {
  it('is sent again after a 502 from the proxy in front of the service', async () => {
    const client = await tgClient();
    const seen = intercept(forChat(client.platformId), 'bad_gateway');
    expect(await tgChannel.send(client, text('After a 502'), { db })).toEqual(SENT);
    expect(seen).toHaveLength(2);
    expect(callsTo(client.platformId).map((c) => c.status)).toEqual([200]);
  });

  it('is sent again when the service closed the connection without an answer', async () => {
    const client = await tgClient();
    const seen = intercept(forChat(client.platformId), 'drop', 'drop');
    expect(await tgChannel.send(client, text('After a reset'), { db })).toEqual(SENT);
    expect(seen).toHaveLength(3);
    expect(callsTo(client.platformId)).toHaveLength(1);
  });

  it('records the error once BLOCKBOT_TG_RETRY_SECONDS have passed', async () => {
    const client = await tgClient();
    const seen = intercept(forChat(client.platformId), ...Array<Interception>(20).fill('bad_gateway'));
    const result = await tgChannel.send(client, text('Never'), { db });
    expect(result).toEqual({
      delivered: false,
      error: 'sendMessage: the Bot API answered HTTP 502 with a page that is not its JSON',
    });
    // Tried again with growing pauses (each also a chat's second from the try before), then given up.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.length).toBeLessThan(20);
    expect(callsTo(client.platformId)).toEqual([]);
  });
});

describe('the messenger’s limits', () => {
  it('space a chat’s sends from when the previous one was answered, not from its slot', async () => {
    // The photo reaches the service 300 ms late (a slow network): it is counted then, so a text
    // sent at its slot, a second after the photo's, would be the chat's second in one second.
    const client = await tgClient();
    const before = fake.calls.length;
    fake.intercept = async (r): Promise<Interception> => {
      if (forChat(client.platformId)(r) && r.method === 'sendPhoto') await sleep(300);
      return 'process';
    };
    expect(await tgChannel.send(client, photoAndText('Late photo'), { db })).toEqual(SENT);
    expect(callsTo(client.platformId).map((c) => [c.method, c.status])).toEqual([
      ['sendPhoto', 200],
      ['sendMessage', 200],
    ]);
    expect(limited(before)).toEqual([]);
  });

  it('count the sends of every copy of the channel’s module in one process together', async () => {
    // The server's bundles may each load the adapter (a webhook route, the job worker). The
    // first ten sends reach the service 400 ms late: counted then, they and the next 21 would
    // be 31 in one second unless the 31st waits for the first's answer, whichever copy sent it.
    const copies: ChannelAdapter[] = [];
    for (let i = 0; i < 2; i++) {
      vi.resetModules();
      copies.push((await import('./adapter')).tgChannel);
    }
    expect(copies[0]).not.toBe(copies[1]);
    const clients = await Promise.all(Array.from({ length: 40 }, () => tgClient()));
    const chats = new Set(clients.map((c) => c.platformId));
    let held = 0;
    fake.intercept = async (r): Promise<Interception> => {
      if (chats.has(String(r.params.chat_id)) && held++ < 10) await sleep(400);
      return 'process';
    };
    const before = fake.calls.length;
    const results = await Promise.all(
      clients.map((client, i) => copies[i % 2].send(client, text(`Copy ${i % 2}`), { db })),
    );
    expect(results.filter((r) => !r.delivered)).toEqual([]);
    expect(limited(before)).toEqual([]);
  });
});

describe('a broadcast of a photo and a long text', () => {
  it('sends to its recipients side by side, within the limits', async () => {
    fake.intercept = null;
    const clients = await Promise.all(Array.from({ length: 8 }, () => tgClient()));
    const chats = new Set(clients.map((c) => c.platformId));
    const before = fake.calls.length;
    const { blockId: _none, ...content } = photoAndText('Sale');
    const broadcast = await startBroadcast(db, projectId, {
      ...content,
      clientIds: clients.map((c) => c.id),
      shiftSeconds: 0,
    });
    await waitFor(
      async () => (await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).status === 'done',
      'the broadcast to finish',
      60_000,
    );
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).toMatchObject({
      sent: 8,
      failed: 0,
    });
    const sends = fake.calls.slice(before).filter((c) => chats.has(String(c.params.chat_id)));
    expect(sends.filter((c) => c.status === 200)).toHaveLength(16);
    expect(limited(before)).toEqual([]);
    // One after another, each recipient's text (a second after its photo) came before the next
    // recipient's photo; side by side, the photos go at the bot's rate while the texts wait.
    const firstText = sends.findIndex((c) => c.method === 'sendMessage');
    expect(sends.slice(0, firstText).filter((c) => c.method === 'sendPhoto').length).toBeGreaterThan(1);
  });
});

describe('a message sent in parts', () => {
  /** A message to the client through the engine, as a flow or the API sends it. */
  const sendThroughEngine = async (client: { id: number }, message: ReturnType<typeof photoAndText>) =>
    handleEvent(
      await getEngineDeps(),
      projectId,
      { clientId: client.id },
      {
        type: 'send',
        text: message.text,
        attachments: message.attachments,
        buttons: null,
        messageFromOutside: 2,
      },
    );
  const outboxOf = async (messageId: bigint) =>
    db.outbox.findFirstOrThrow({ where: { messageId, kind: 'send' } });

  it('records each answered part on its outbox row, and keeps the row claimed while it sends', async () => {
    const client = await tgClient();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    fake.intercept = async (r): Promise<Interception> => {
      if (forChat(client.platformId)(r) && r.method === 'sendMessage') await released;
      return 'process';
    };
    const sending = sendThroughEngine(client, photoAndText('In parts'));
    const message = await waitFor(
      () => db.message.findFirst({ where: { clientId: client.id, direction: 'out' } }),
      'the message stored',
    );
    const first = await outboxOf(message.id);
    // The text is held by the service for longer than a claim's renewal period: the row stays
    // this process's, so the sweeper does not send it again beside it.
    const row = await waitFor(async () => {
      const r = await outboxOf(message.id);
      return (
        r.partsSent === 1 && (r.claimedUntil?.getTime() ?? 0) > (first.claimedUntil?.getTime() ?? 0) && r
      );
    }, 'the photo recorded and the claim renewed');
    expect(row).toMatchObject({ state: 'pending', partsSent: 1 });
    expect(await sweepOutbox(await getEngineDeps())).toBe(0);
    release();
    await sending;
    expect(await outboxOf(message.id)).toMatchObject({ state: 'done' });
    expect(callsTo(client.platformId).map((c) => c.method)).toEqual(['sendPhoto', 'sendMessage']);
  });

  it('is sent on from its first unanswered part when the sweeper takes it over after a crash', async () => {
    // What a process that died after the photo's answer left: the message stored, its outbox
    // row pending with the photo recorded, its claim run out.
    fake.intercept = null;
    const client = await tgClient();
    const content = photoAndText('Taken over');
    const message = await db.message.create({
      data: {
        projectId,
        clientId: client.id,
        direction: 'out',
        text: content.text,
        attachments: content.attachments,
        delivered: false,
      },
    });
    await db.outbox.create({
      data: { projectId, kind: 'send', messageId: message.id, partsSent: 1, claimedUntil: new Date(0) },
    });
    expect(await sweepOutbox(await getEngineDeps())).toBeGreaterThanOrEqual(1);
    expect(callsTo(client.platformId).map((c) => c.method)).toEqual(['sendMessage']);
    expect(await db.message.findUniqueOrThrow({ where: { id: message.id } })).toMatchObject({
      delivered: true,
    });
  });
});
