import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_STATUS } from '@/lib/channels/descriptors';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { serveChannelRoutes } from '@/server/channels/testing/channel-routes';
import { readVariables } from '@/server/contacts/variable-store';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { startWorkers } from '@/server/jobs/jobs';
import { createProject } from '@/server/projects/project-service';
import type { RouteServer } from '@/server/testing/route-server';
import { waitFor } from '@/server/testing/wait-for';
import type { TRPCContext } from '@/server/trpc/init';
import { createCaller } from '@/server/trpc/root';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { channelSweepJob } from '../inbound/pipeline';
import { tgChannel } from './adapter';
import { tgPollJob } from './polling';
import { type FakeBot, type FakeBotApi, startFakeBotApi } from './testing/fake-bot-api';

/**
 * The tg channel end to end: bots connected through the web app's API against the fake Bot
 * API, updates delivered by the fake to the real webhook route over HTTP (or taken by the
 * poller), processed by the job worker through the engine, and the bot's replies arriving back
 * at the fake as Bot API calls.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-tg-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let fake: FakeBotApi;
let routeServer: RouteServer;
let routeUrl: string;
let owner: ReturnType<typeof createCaller>;
let projectId: number;

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  // Presses answered later than 2 s are refused: a flow's paced sends must not hold the answer.
  fake = await startFakeBotApi({ limits: null, callbackAnswerSeconds: 2 });
  routeServer = await serveChannelRoutes();
  routeUrl = routeServer.url;
  process.env.BLOCKBOT_TG_API_ROOT = fake.url;
  process.env.BLOCKBOT_BASE_URL = routeUrl;
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  await startWorkers([channelSweepJob, tgPollJob] as never);
  const user = await db.user.create({ data: { id: 'u-tg', email: 'tg@example.com', name: 'tg' } });
  owner = createCaller({
    db,
    session: { user, session: { id: 's-tg', userId: user.id } } as unknown as TRPCContext['session'],
  });
  projectId = (
    await createProject(db, { name: 'tg', plan: 'business', owner: { email: user.email, userId: user.id } })
  ).id;
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: 'Welcome',
        trigger: { alternatives: '' },
        buttons: [{ type: 'inline', text: 'Yes' }],
      },
      {
        id: 2,
        kind: 'start',
        text: 'About: #{about}',
        trigger: { alternatives: 'describe' },
        formula: "tg_set_bot_description('We sell pizza')\nabout = tg_get_bot_description()",
      },
      // Three messages to one chat: its pacing spreads them over more than 2 s.
      { id: 3, kind: 'start', text: 'word '.repeat(1800), trigger: { alternatives: 'Long' } },
    ],
    arrows: [],
  });
});
afterAll(async () => {
  await app?.dispose();
  await fake?.close();
  routeServer?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

let nextChat = 500;
const privateMessage = (fields: Record<string, unknown>) => {
  const chat = nextChat++;
  return {
    chat,
    update: {
      message: {
        message_id: 1,
        date: 1_700_000_000,
        chat: { id: chat, type: 'private', first_name: 'Ann' },
        from: { id: chat, is_bot: false, first_name: 'Ann', last_name: 'Lee', username: 'ann' },
        ...fields,
      },
    },
  };
};

/** A press of the inline button `data` on the bot's message in a private chat. */
const pressOf = (chat: number, data: string) => ({
  id: `q-${chat}`,
  from: { id: chat, is_bot: false, first_name: 'Ann' },
  message: {
    message_id: 9,
    date: 1_700_000_000,
    chat: { id: chat, type: 'private', first_name: 'Ann' },
    reply_markup: { inline_keyboard: [[{ text: data, callback_data: data }]] },
  },
  data,
});

const clientOf = (chat: number, groupId: string) =>
  db.client.findFirst({ where: { projectId, clientType: 1, groupId, platformId: String(chat) } });

async function incoming(chat: number, groupId: string) {
  const client = await waitFor(() => clientOf(chat, groupId), `client ${chat}`);
  return waitFor(
    () => db.message.findFirst({ where: { clientId: client.id, direction: 'in' } }),
    `the message of ${chat}`,
  );
}

const replyTo = (bot: FakeBot, chat: number) =>
  fake.waitForCall(
    (c) => c.token === bot.token && c.method === 'sendMessage' && c.params.chat_id === String(chat),
  );

async function post(channelId: number, body: string, headers: Record<string, string>) {
  const response = await fetch(`${routeUrl}/api/channels/tg/${channelId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as { description?: string } };
}

describe('a bot connected by webhook', () => {
  let bot: FakeBot;
  let channelId: number;
  let secret: string;

  beforeAll(async () => {
    bot = fake.addBot({ username: 'shop_bot', firstName: 'Shop' });
    const channel = await owner.channels.connect({
      kind: 'tg',
      projectId,
      token: bot.token,
      mode: 'webhook',
    });
    channelId = channel.id;
    secret = fake.bot(bot.token).webhook?.secretToken ?? '';
  });

  it('is checked with getMe, its webhook set with a secret, its token sealed and never listed', async () => {
    expect(fake.bot(bot.token).webhook).toEqual({
      url: `${routeUrl}/api/channels/tg/${channelId}`,
      secretToken: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
    });
    const list = await owner.channels.list({ projectId });
    expect(list).toEqual([
      expect.objectContaining({ id: channelId, groupId: 'shop_bot', name: 'Shop', receiveMode: 'webhook' }),
    ]);
    expect(JSON.stringify(list)).not.toContain(bot.token);
    expect(JSON.stringify(list)).not.toContain(secret);
    const row = await db.channel.findUniqueOrThrow({ where: { id: channelId } });
    expect(JSON.stringify(row.credentials)).not.toContain(bot.token.split(':')[1]);
    expect(await owner.project.get({ projectId })).toBeTruthy();
  });

  it('refuses a bad token with the Bot API answer and a bot connected twice', async () => {
    await expect(
      owner.channels.connect({ kind: 'tg', projectId, token: '123456:WRONG-TOKEN-abcdef', mode: 'webhook' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('Unauthorized') });
    await expect(
      owner.channels.connect({ kind: 'tg', projectId, token: 'nonsense', mode: 'webhook' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('BotFather') });
    await expect(
      owner.channels.connect({ kind: 'tg', projectId, token: bot.token, mode: 'webhook' }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('answers a text through the engine with the bot’s inline keyboard', async () => {
    const { chat, update } = privateMessage({ text: 'hello' });
    expect(await fake.pushUpdate(bot.token, update)).toMatchObject({ via: 'webhook', status: 200 });
    const reply = await replyTo(bot, chat);
    expect(reply.status).toBe(200);
    expect(reply.params).toMatchObject({
      text: 'Welcome',
      reply_markup: { inline_keyboard: [[{ text: 'Yes', callback_data: 'Yes' }]] },
    });
    expect(await incoming(chat, 'shop_bot')).toMatchObject({ text: 'hello' });
    expect(await clientOf(chat, 'shop_bot')).toMatchObject({ name: 'Ann Lee', clientType: 1 });
    // The reply is recorded sent, under the id the messenger gave it.
    const { message_id } = (reply.answer as { result: { message_id: number } }).result;
    expect(
      await waitFor(
        () => db.message.findFirst({ where: { text: 'Welcome', externalId: String(message_id) } }),
        'the reply recorded with its messenger id',
      ),
    ).toMatchObject({ direction: 'out', status: 'sent', delivered: true });
  });

  it('refuses an update without the right secret header, storing nothing', async () => {
    const before = await db.channelUpdate.count();
    const body = JSON.stringify({ update_id: 1, ...privateMessage({ text: 'x' }).update });
    expect((await post(channelId, body, {})).status).toBe(403);
    expect((await post(channelId, body, { 'x-telegram-bot-api-secret-token': 'wrong' })).status).toBe(403);
    expect(await db.channelUpdate.count()).toBe(before);
  });

  it('answers 200 to what it does not process, recording why: the Bot API would resend a 4xx (issue 30)', async () => {
    const auth = { 'x-telegram-bot-api-secret-token': secret };
    const lastError = async () =>
      (await db.channel.findUniqueOrThrow({ where: { id: channelId } })).lastError;
    const big = JSON.stringify({ update_id: 2, message: { text: 'x'.repeat(10 * 1024 * 1024) } });
    expect((await post(channelId, big, auth)).status).toBe(200);
    expect(await lastError()).toMatch(/^An update was not processed: it is over 1048576 bytes/);
    expect((await post(channelId, '{"update_id":', auth)).status).toBe(200);
    expect(await lastError()).toBe('An update was not processed: its body is not JSON');
    const proto = await post(channelId, '{"update_id":4,"message":{"__proto__":{"polluted":1}}}', auth);
    expect(proto.status).toBe(200);
    expect(await lastError()).toContain('__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // One with an update_id is kept, processed with its reason, so a resend is dropped too.
    const malformed = await post(channelId, '{"update_id":5,"message":{"chat":"nope"}}', auth);
    expect(malformed.status).toBe(200);
    const row = await waitFor(
      () => db.channelUpdate.findFirst({ where: { channelId, updateId: 5, processedAt: { not: null } } }),
      'the refused update recorded',
    );
    expect(row.error).toMatch(/^message\.message_id: /);
    expect(await lastError()).toBe(`An update was not processed: update 5: ${row.error}`);
    // A bot that is not connected here has no secret to check: 404.
    expect((await post(999_999, '{"update_id":3}', auth)).status).toBe(404);
  });

  it('takes a photo with a 4,096-character caption (Premium users send them)', async () => {
    const caption = 'й'.repeat(4096);
    const { chat, update } = privateMessage({ photo: [{ file_id: 'long-caption' }], caption });
    expect(await fake.pushUpdate(bot.token, update)).toMatchObject({ status: 200 });
    expect(await incoming(chat, 'shop_bot')).toMatchObject({ text: caption });
  });

  it('stores a text holding half an emoji (a lone surrogate), with U+FFFD in its place', async () => {
    const { chat, update } = privateMessage({ text: 'half \ud83d' });
    expect(await fake.pushUpdate(bot.token, update)).toMatchObject({ status: 200 });
    expect(await incoming(chat, 'shop_bot')).toMatchObject({ text: 'half \ufffd' });
  });

  it('processes a repeated update_id once', async () => {
    const { chat, update } = privateMessage({ text: 'twice' });
    const body = JSON.stringify({ ...update, update_id: 777 });
    const auth = { 'x-telegram-bot-api-secret-token': secret };
    // Resent while the first is still waiting, and again after it was processed.
    const both = await Promise.all([post(channelId, body, auth), post(channelId, body, auth)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    await replyTo(bot, chat);
    await waitFor(
      () => db.channelUpdate.findFirst({ where: { updateId: 777, processedAt: { not: null } } }),
      'done',
    );
    expect((await post(channelId, body, auth)).status).toBe(200);
    const client = await clientOf(chat, 'shop_bot');
    expect(await db.channelUpdate.count({ where: { updateId: 777 } })).toBe(1);
    // Nothing of it is left to process (held or for the sweeper): one message in, one answer out.
    expect(await db.channelUpdate.count({ where: { processedAt: null } })).toBe(0);
    expect(await db.message.count({ where: { clientId: client?.id, direction: 'in' } })).toBe(1);
    expect(
      fake.callsOf('sendMessage', bot.token).filter((c) => c.params.chat_id === String(chat)),
    ).toHaveLength(1);
  });

  it('brings every inbound kind to the engine', async () => {
    // Files are stored as our signed route's address, never the Bot API's (it has the token).
    const signedFile = (id: string) =>
      expect.stringMatching(new RegExp(`/api/channels/tg/\\d+/file/${id}\\?sig=[\\w-]{32}$`));
    const kinds: [Record<string, unknown>, { text: string; attachments: unknown[] }][] = [
      [
        { photo: [{ file_id: 'small' }, { file_id: 'big' }], caption: 'look' },
        { text: 'look', attachments: [{ type: 'image', url: signedFile('big') }] },
      ],
      [
        { document: { file_id: 'doc1' } },
        { text: '', attachments: [{ type: 'file', url: signedFile('doc1') }] },
      ],
      [
        { audio: { file_id: 'aud1' } },
        { text: '', attachments: [{ type: 'audio', url: signedFile('aud1') }] },
      ],
      [
        { video: { file_id: 'vid1' } },
        { text: '', attachments: [{ type: 'video', url: signedFile('vid1') }] },
      ],
      [
        { voice: { file_id: 'voc1' } },
        { text: '', attachments: [{ type: 'audio', url: signedFile('voc1') }] },
      ],
      [{ location: { latitude: 48.85, longitude: 2.35 } }, { text: '48.85,2.35', attachments: [] }],
    ];
    for (const [fields, expected] of kinds) {
      const { chat, update } = privateMessage(fields);
      expect(await fake.pushUpdate(bot.token, update)).toMatchObject({ status: 200 });
      expect(await incoming(chat, 'shop_bot'), JSON.stringify(fields)).toMatchObject(expected);
    }
    const { chat, update } = privateMessage({});
    const contact = { phone_number: '+33612345678', first_name: 'Ann', user_id: chat };
    await fake.pushUpdate(bot.token, { message: { ...update.message, contact } });
    expect(await incoming(chat, 'shop_bot')).toMatchObject({ text: '+33612345678' });
    const client = await clientOf(chat, 'shop_bot');
    expect(await readVariables(db, { projectId, clientId: client?.id ?? 0, dealId: null })).toMatchObject({
      client: { phone: '+33612345678', username: 'ann' },
    });
  });

  it('keeps the /start payload in start_payload', async () => {
    const { chat, update } = privateMessage({ text: '/start promo42' });
    await fake.pushUpdate(bot.token, update);
    await replyTo(bot, chat);
    const client = await waitFor(() => clientOf(chat, 'shop_bot'), 'the client');
    const deal = await db.deal.findFirst({ where: { clientId: client.id } });
    expect(
      await readVariables(db, { projectId, clientId: client.id, dealId: deal?.id ?? null }),
    ).toMatchObject({
      deal: { start_payload: 'promo42' },
    });
  });

  it('answers a pressed inline button', async () => {
    const { chat } = privateMessage({});
    const query = pressOf(chat, 'Yes');
    await fake.pushUpdate(bot.token, { callback_query: query });
    const answered = await fake.waitForCall(
      (c) => c.method === 'answerCallbackQuery' && c.params.callback_query_id === query.id,
    );
    expect(answered.status).toBe(200);
    expect(await incoming(chat, 'shop_bot')).toMatchObject({ text: 'Yes' });
  });

  it('answers a pressed button before its flow and the flow’s paced sends (issue 30)', async () => {
    const { chat } = privateMessage({});
    const query = pressOf(chat, 'Long');
    await fake.pushUpdate(bot.token, { callback_query: query });
    await waitFor(
      async () =>
        fake.callsOf('sendMessage', bot.token).filter((c) => c.params.chat_id === String(chat)).length === 3,
      'the three parts',
    );
    const answers = fake
      .callsOf('answerCallbackQuery', bot.token)
      .filter((c) => c.params.callback_query_id === query.id);
    // Answered within the fake's 2 s, while the chat's pacing spread the flow's sends over more.
    expect(answers.map((c) => c.status)).toEqual([200]);
    const sends = fake.callsOf('sendMessage', bot.token).filter((c) => c.params.chat_id === String(chat));
    expect(sends[2].at - sends[0].at).toBeGreaterThan(2000);
  });

  it('answers business chats through their connection, and refuses a disabled one clearly', async () => {
    const owner = { id: 900_001, is_bot: false, first_name: 'Shop owner' };
    const connection = (isEnabled: boolean) => ({
      business_connection: {
        id: 'biz-1',
        user: owner,
        user_chat_id: owner.id,
        date: 1_700_000_000,
        is_enabled: isEnabled,
        rights: { can_reply: true },
      },
    });
    expect(await fake.pushUpdate(bot.token, connection(true))).toMatchObject({ status: 200 });
    await waitFor(
      () => db.tgBusinessConnection.findFirst({ where: { connectionId: 'biz-1' } }),
      'the connection',
    );
    const { chat, update } = privateMessage({ text: 'hello shop', business_connection_id: 'biz-1' });
    await fake.pushUpdate(bot.token, { business_message: update.message });
    const reply = await replyTo(bot, chat);
    expect(reply).toMatchObject({
      status: 200,
      params: { text: 'Welcome', business_connection_id: 'biz-1' },
    });
    // The owner writing in the same chat is not the client.
    await fake.pushUpdate(bot.token, {
      business_message: { ...update.message, message_id: 2, text: 'owner here', from: owner },
    });

    expect(await fake.pushUpdate(bot.token, connection(false))).toMatchObject({ status: 200 });
    await waitFor(
      () => db.tgBusinessConnection.findFirst({ where: { connectionId: 'biz-1', enabled: false } }),
      'the connection disabled',
    );
    const client = await waitFor(() => clientOf(chat, 'shop_bot'), 'the client');
    // The connection is the channel's state of the client, not a variable a formula could change.
    const state = () => db.clientChannelState.findMany({ where: { clientId: client.id } });
    await waitFor(
      () =>
        db.clientChannelState.findFirst({
          where: { clientId: client.id, key: 'tg_business_connection_id', value: 'biz-1' },
        }),
      "the connection kept as the client's channel state",
    );
    expect(
      await db.clientVariable.count({ where: { clientId: client.id, name: { contains: 'business' } } }),
    ).toBe(0);
    const sends = fake.callsOf('sendMessage', bot.token).length;
    const pacing = () => db.channelPacing.findMany({ where: { channel: { groupId: 'shop_bot' } } });
    const pacingBefore = await pacing();
    const refused = await tgChannel.send(
      client,
      {
        text: 'Later',
        attachments: [],
        buttons: null,
        blockId: null,
      },
      { db },
    );
    expect(refused).toEqual({
      delivered: false,
      error: expect.stringContaining('business connection biz-1 is disabled'),
    });
    expect(fake.callsOf('sendMessage', bot.token)).toHaveLength(sends);
    // The route's statement takes a send's slot only for a route it does not refuse.
    expect(await pacing()).toEqual(pacingBefore);
    expect(await db.message.count({ where: { clientId: client.id, text: 'owner here' } })).toBe(0);

    // The same person writing to the bot directly is answered directly.
    const direct = { ...update.message, message_id: 3, text: 'direct', business_connection_id: undefined };
    await fake.pushUpdate(bot.token, { message: direct });
    await waitFor(() => db.message.findFirst({ where: { clientId: client.id, text: 'direct' } }), 'direct');
    expect(await state()).toEqual([]);
    await waitFor(
      () =>
        db.channelUpdate.findFirst({
          where: { processedAt: { not: null }, payload: { path: ['message', 'text'], equals: 'direct' } },
        }),
      'the direct message processed',
    );
    const answer = await tgChannel.send(
      client,
      {
        text: 'Hi',
        attachments: [],
        buttons: null,
        blockId: null,
      },
      { db },
    );
    const [sent] = fake.callsOf('sendMessage', bot.token).slice(-1);
    expect(sent.params).toEqual({ chat_id: String(chat), text: 'Hi' });
    // The send answers the id the messenger gave the message.
    const { message_id } = (sent.answer as { result: { message_id: number } }).result;
    expect(answer).toEqual({ delivered: true, externalId: String(message_id) });
  });

  it('unsubscribes a client who blocked the bot instead of retrying', async () => {
    const { chat, update } = privateMessage({ text: 'hi' });
    fake.blockChat(bot.token, chat);
    await fake.pushUpdate(bot.token, update);
    const client = await waitFor(async () => {
      const c = await clientOf(chat, 'shop_bot');
      return c && !c.subscribed ? c : null;
    }, 'the client unsubscribed');
    // The send's outcome is recorded on the message after the adapter has unsubscribed the client.
    const out = await waitFor(
      () => db.message.findFirst({ where: { clientId: client.id, direction: 'out', error: { not: null } } }),
      'the failed send recorded',
    );
    expect(out).toMatchObject({ delivered: false, error: expect.stringContaining('blocked') });
    expect(
      fake.callsOf('sendMessage', bot.token).filter((c) => c.params.chat_id === String(chat)),
    ).toHaveLength(1);
  });

  it('subscribes again a client who unblocked the bot and writes, and follows my_chat_member (issue 30)', async () => {
    const { chat, update } = privateMessage({ text: 'hi' });
    fake.blockChat(bot.token, chat);
    await fake.pushUpdate(bot.token, update);
    const subscribed = (want: boolean) =>
      waitFor(
        async () => {
          const c = await clientOf(chat, 'shop_bot');
          return c?.subscribed === want && c;
        },
        `the client ${want ? 'subscribed' : 'unsubscribed'}`,
      );
    await subscribed(false);
    // Unblocked, the client writes again: subscribed, so "all subscribers" broadcasts reach them.
    fake.bot(bot.token).blocked.delete(String(chat));
    await fake.pushUpdate(bot.token, { message: { ...update.message, message_id: 2, text: 'back' } });
    await subscribed(true);
    // The messenger says so itself when the bot is blocked and unblocked.
    const membership = (status: string) => ({
      my_chat_member: {
        chat: update.message.chat,
        from: update.message.from,
        date: 1_700_000_100,
        old_chat_member: { user: { id: 1, is_bot: true, first_name: 'Shop' }, status: 'member' },
        new_chat_member: { user: { id: 1, is_bot: true, first_name: 'Shop' }, status },
      },
    });
    await fake.pushUpdate(bot.token, membership('kicked'));
    await subscribed(false);
    await fake.pushUpdate(bot.token, membership('member'));
    await subscribed(true);
  });

  it('runs tg_* functions with the bot', async () => {
    expect(await tgChannel.call(projectId, 'tg_set_command', { args: [[['start', 'Go']]] }, { db })).toBe(
      true,
    );
    expect(fake.bot(bot.token).commands.get('default|')).toEqual([{ command: 'start', description: 'Go' }]);
  });

  it("runs a tg client's tg_* formula functions with the client's own bot", async () => {
    const { chat, update } = privateMessage({ text: 'describe' });
    await fake.pushUpdate(bot.token, update);
    expect((await replyTo(bot, chat)).params).toMatchObject({ text: 'About: We sell pizza' });
    expect(fake.bot(bot.token).descriptions.get('')).toBe('We sell pizza');
  });

  it('disconnects: the webhook is deleted and the channel gone', async () => {
    await owner.channels.disconnect({ projectId, channelId });
    expect(fake.bot(bot.token).webhook).toBeNull();
    expect(await owner.channels.list({ projectId })).toEqual([]);
    const { update } = privateMessage({ text: 'late' });
    expect(
      (
        await post(channelId, JSON.stringify({ update_id: 9, ...update }), {
          'x-telegram-bot-api-secret-token': secret,
        })
      ).status,
    ).toBe(404);
  });
});

it('lets operators see the bots but not connect or disconnect them, and strangers nothing', async () => {
  const caller = async (email: string, role?: 'operator') => {
    const user = await db.user.create({ data: { id: `u-${email}`, email, name: email } });
    if (role) await db.projectMember.create({ data: { projectId, userId: user.id, email, role } });
    return createCaller({
      db,
      session: { user, session: { id: `s-${email}`, userId: user.id } } as unknown as TRPCContext['session'],
    });
  };
  const otto = await caller('otto@example.com', 'operator');
  const eve = await caller('eve@example.com');
  expect(await otto.channels.list({ projectId })).toEqual(await owner.channels.list({ projectId }));
  const token = fake.addBot({ username: 'guarded_bot' }).token;
  await expect(
    otto.channels.connect({ kind: 'tg', projectId, token, mode: 'webhook' }),
  ).rejects.toMatchObject({
    code: 'FORBIDDEN',
  });
  await expect(otto.channels.disconnect({ projectId, channelId: 1 })).rejects.toMatchObject({
    code: 'FORBIDDEN',
  });
  await expect(eve.channels.list({ projectId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  expect(fake.bot(token).webhook).toBeNull();
});

describe('a bot connected by long polling', () => {
  it('takes updates with getUpdates, answers them, and stops with the error when the token is revoked', async () => {
    const bot = fake.addBot({ username: 'poll_bot', firstName: 'Poll' });
    const channel = await owner.channels.connect({
      kind: 'tg',
      projectId,
      token: bot.token,
      mode: 'polling',
    });
    expect(fake.bot(bot.token).webhook).toBeNull();
    await fake.waitForPoll(bot.token);
    const { chat, update } = privateMessage({ text: 'polled' });
    expect(await fake.pushUpdate(bot.token, update)).toMatchObject({ via: 'queue' });
    expect((await replyTo(bot, chat)).params).toMatchObject({ text: 'Welcome' });
    expect(await incoming(chat, 'poll_bot')).toMatchObject({ text: 'polled' });
    // The next poll starts past the update taken.
    await waitFor(async () => {
      const row = await db.channel.findUniqueOrThrow({ where: { id: channel.id } });
      return row.pollOffset > 100_000n;
    }, 'the offset moved');
    await fake.waitForPoll(bot.token);

    fake.revoke(bot.token);
    const stopped = await waitFor(async () => {
      const row = await db.channel.findUniqueOrThrow({ where: { id: channel.id } });
      return row.status === CHANNEL_STATUS.stopped ? row : null;
    }, 'polling stopped');
    expect(stopped.lastError).toContain('Unauthorized');
    const [view] = (await owner.channels.list({ projectId })).filter((c) => c.id === channel.id);
    expect(view).toMatchObject({ receiving: false, lastError: expect.stringContaining('revoked') });
    // The poll job that got the 401 completes and queues no next one.
    await waitFor(async () => {
      const [{ open }] = await db.$queryRawUnsafe<{ open: number }[]>(
        `SELECT count(*)::int AS open FROM pgboss.job WHERE name = 'tg.poll' AND singleton_key = $1 AND state < 'completed'`,
        `tg-poll-${channel.id}`,
      );
      return open === 0;
    }, 'the poll chain ended');
    expect(fake.callsOf('getUpdates', bot.token).at(-1)?.status).not.toBe(200);
  });
});

describe('a bot whose flow answers presses with a link (tg_callback_url_open)', () => {
  it('gives a press the flow’s answer only, and answers its other presses after the flow, before its sends', async () => {
    const linked = (
      await createProject(db, {
        name: 'tg links',
        plan: 'business',
        owner: { email: 'tg@example.com', userId: 'u-tg' },
      })
    ).id;
    await saveAndPublish(db, linked, {
      format: BOT_SCHEMA_FORMAT,
      blocks: [
        {
          id: 1,
          kind: 'start',
          text: 'Opening the shop',
          trigger: { alternatives: 'Open' },
          formula: "tg_callback_url_open(callback_query_id, 'https://t.me/links_bot?start=promo')",
        },
        { id: 2, kind: 'start', text: 'Plain', trigger: { alternatives: 'Plain' } },
      ],
      arrows: [],
    });
    const bot = fake.addBot({ username: 'links_bot' });
    await owner.channels.connect({ kind: 'tg', projectId: linked, token: bot.token, mode: 'webhook' });
    const answersOf = (id: string) =>
      fake.callsOf('answerCallbackQuery', bot.token).filter((c) => c.params.callback_query_id === id);

    const open = pressOf(nextChat++, 'Open');
    await fake.pushUpdate(bot.token, { callback_query: open });
    await fake.waitForCall((c) => c.token === bot.token && c.params.text === 'Opening the shop');
    // The Bot API takes one answer per press: the link is it, and no other follows.
    expect(answersOf(open.id).map((c) => [c.status, c.params.url])).toEqual([
      [200, 'https://t.me/links_bot?start=promo'],
    ]);

    const plain = pressOf(nextChat++, 'Plain');
    await fake.pushUpdate(bot.token, { callback_query: plain });
    const sent = await fake.waitForCall((c) => c.token === bot.token && c.params.text === 'Plain');
    const [answer] = answersOf(plain.id);
    expect(answer).toMatchObject({ status: 200, params: { callback_query_id: plain.id } });
    expect(fake.calls.indexOf(answer)).toBeLessThan(fake.calls.indexOf(sent));
    expect(answersOf(open.id)).toHaveLength(1);
  });
});
