import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { BUSINESS_CONNECTION_KEY, parseUpdate } from '@/lib/tg/inbound';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import { createProject } from '@/server/projects/project-service';
import { waitFor } from '@/server/testing/wait-for';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { connectTgChannel } from './channel-service';
import { type FakeBot, type FakeBotApi, startFakeBotApi } from './testing/fake-bot-api';
import { storeUpdates } from './updates';

/**
 * Functions that find a client by its tg id, with two bots of one project: the same person is
 * a client of each, and the running client's bot, or the group_id given, picks which; the
 * business flag of tg_callback picks a client of a business account.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-tg-functions-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let fake: FakeBotApi;
let projectId: number;
const bots: Record<string, { bot: FakeBot; channelId: number }> = {};
/** The person who is a client of both bots. */
const BOTH = '8001';
const BUSINESS = '8003';

const clientId = async (groupId: string, platformId: string) =>
  (await db.client.findFirstOrThrow({ where: { projectId, groupId, platformId } })).id;

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  fake = await startFakeBotApi({ limits: null });
  process.env.BLOCKBOT_TG_API_ROOT = fake.url;
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  projectId = (await createProject(db, { name: 'two bots', plan: 'business' })).id;
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { id: 1, kind: 'start', text: 'Hi #{question}', trigger: { alternatives: '' } },
      {
        id: 2,
        kind: 'start',
        text: 'own=#{own} other=#{other} any case=#{cased}',
        trigger: { alternatives: 'find' },
        formula: `own = get_client_id_by_platform_id(1, '${BOTH}')\nother = get_client_id_by_platform_id(1, '${BOTH}', 'two_bot')\ncased = get_client_id_by_platform_id(1, '${BOTH}', 'Two_Bot')`,
      },
      {
        id: 3,
        kind: 'start',
        text: 'sent',
        trigger: { alternatives: 'ping' },
        formula: `platform_message('${BOTH}', 'ping one')\nplatform_message('${BOTH}', 'ping two', None, None, None, 'two_bot')`,
      },
      {
        id: 4,
        kind: 'start',
        text: 'called',
        trigger: { alternatives: 'call' },
        formula: `tg_callback('${BUSINESS}', 'direct?')\ntg_callback('${BUSINESS}', 'through business', None, 1)`,
      },
    ],
    arrows: [],
  });
  for (const username of ['one_bot', 'two_bot']) {
    const bot = fake.addBot({ username });
    const channel = await connectTgChannel(
      db,
      projectId,
      { token: bot.token, mode: 'polling' },
      async () => {},
    );
    bots[username] = { bot, channelId: channel.id };
    await db.client.create({ data: { projectId, clientType: 1, groupId: username, platformId: BOTH } });
  }
  const business = await db.client.create({
    data: { projectId, clientType: 1, groupId: 'one_bot', platformId: BUSINESS },
  });
  await db.clientChannelState.create({
    data: { clientId: business.id, key: BUSINESS_CONNECTION_KEY, value: 'biz-9' },
  });
});
afterAll(async () => {
  await app?.dispose();
  await fake?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

let nextUpdate = 1;

/** `text` from chat 8002 to `username`, processed by this process as the webhook would. */
async function say(username: string, text: string) {
  const payload = {
    update_id: nextUpdate++,
    message: {
      message_id: nextUpdate,
      date: 1_700_000_000,
      chat: { id: 8002, type: 'private', first_name: 'Bo' },
      from: { id: 8002, is_bot: false, first_name: 'Bo' },
      text,
    },
  };
  const inbound = parseUpdate(payload, { botUsername: username });
  await storeUpdates(await getEngineDeps(), bots[username].channelId, [
    { updateId: payload.update_id, payload, inbound },
  ]);
}

const sent = (username: string, chat: string, text: string) =>
  fake.waitForCall(
    (c) =>
      c.token === bots[username].bot.token &&
      c.method === 'sendMessage' &&
      c.params.chat_id === chat &&
      c.params.text === text,
  );

describe('several tg bots in one project', () => {
  it("get_client_id_by_platform_id finds the running client's bot's client, or the group's", async () => {
    await say('one_bot', 'find');
    const one = await clientId('one_bot', BOTH);
    const two = await clientId('two_bot', BOTH);
    expect(one).not.toBe(two);
    // Bot usernames are case-insensitive (issue 30).
    await sent('one_bot', '8002', `own=${one} other=${two} any case=${two}`);
  });

  it("platform_message sends through the running client's bot, or the group_id's", async () => {
    await say('two_bot', 'ping');
    const viaTwo = await sent('two_bot', BOTH, 'ping one');
    expect(viaTwo.status).toBe(200);
    await sent('two_bot', BOTH, 'ping two');
    await say('one_bot', 'ping');
    await sent('one_bot', BOTH, 'ping one');
    await sent('two_bot', BOTH, 'ping two');
    expect(
      fake.callsOf('sendMessage', bots.one_bot.bot.token).filter((c) => c.params.text === 'ping two'),
    ).toEqual([]);
  });

  it('tg_callback with the business flag reaches the client of a business account, and only with it', async () => {
    await say('one_bot', 'call');
    await sent('one_bot', '8002', 'called');
    const business = await clientId('one_bot', BUSINESS);
    const incoming = await waitFor(
      () => db.message.findFirst({ where: { clientId: business, direction: 'in' } }),
      'the callback',
    );
    expect(incoming.text).toBe('through business');
    // Its answer goes through the business connection.
    const answer = await fake.waitForCall((c) => c.method === 'sendMessage' && c.params.chat_id === BUSINESS);
    expect(answer.params).toMatchObject({ business_connection_id: 'biz-9', text: 'Hi through business' });
    expect(await db.message.count({ where: { clientId: business, text: 'direct?' } })).toBe(0);
  });
});
