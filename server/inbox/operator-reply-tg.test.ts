import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLIENT_TYPES } from '@/server/channels/channel-adapter';
import { disconnectChannel } from '@/server/channels/channel-list';
import { connectTgChannel } from '@/server/channels/tg/channel-service';
import { type FakeBotApi, startFakeBotApi } from '@/server/channels/tg/testing/fake-bot-api';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import { createProject } from '@/server/projects/project-service';
import { replyToClient } from './operator-reply';

/**
 * An operator's reply to a tg client goes out through the tg channel (the fake Bot API on
 * 127.0.0.1); once the bot is disconnected a reply is kept, not delivered, with the error.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-reply-tg-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let fake: FakeBotApi;

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  fake = await startFakeBotApi({ limits: null });
  process.env.BLOCKBOT_TG_API_ROOT = fake.url;
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
});
afterAll(async () => {
  await app?.dispose();
  await fake?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

it("is sent by the client's tg bot, and kept as failed with the error when the bot is gone", async () => {
  const bot = fake.addBot({ username: 'reply_bot' });
  const { id: projectId } = await createProject(db, { name: 'tg inbox', plan: 'business' });
  const channel = await connectTgChannel(
    db,
    projectId,
    { token: bot.token, mode: 'polling' },
    async () => {},
  );
  const client = await db.client.create({
    data: { projectId, clientType: CLIENT_TYPES.tg, groupId: 'reply_bot', platformId: '4242', name: 'Ann' },
  });
  const member = await db.projectMember.create({ data: { projectId, email: 'op@example.com' } });
  const deps = await getEngineDeps();

  const sent = await replyToClient(deps, projectId, member.id, client.id, 'Hello from a person');
  expect(sent).toMatchObject({ delivered: true, error: null });
  const [call] = fake.callsOf('sendMessage', bot.token);
  expect(call.params).toMatchObject({ chat_id: '4242', text: 'Hello from a person' });

  await disconnectChannel(db, projectId, channel.id);
  const failed = await replyToClient(deps, projectId, member.id, client.id, 'Are you still there?');
  expect(failed.delivered).toBe(false);
  expect(failed.error).toContain('reply_bot is not connected');
  const stored = await db.message.findUniqueOrThrow({ where: { id: failed.messageId } });
  expect(stored).toMatchObject({
    text: 'Are you still there?',
    messageFromOutside: 2,
    delivered: false,
    error: failed.error,
  });
  expect(fake.callsOf('sendMessage', bot.token)).toHaveLength(1);
});
