import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { simulatorClientRef } from '@/server/channels/simulator/simulator-service';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import { handleEvent } from '@/server/engine/handle-event';
import { createProject } from '@/server/projects/project-service';
import { type RouteServer, serveRoutes } from '@/server/testing/route-server';
import { signUpForTest } from '@/server/testing/sign-up';
import { openSseStream, type SseFrame } from '@/server/testing/sse-stream';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { pauseBot } from './handoff';

/**
 * The inbox's live events route over real HTTP: the session and membership checks, the open
 * conversation's messages as they are stored, the list's changes, and a reconnect resuming
 * from Last-Event-ID with nothing lost or repeated.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-inbox-stream-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let server: RouteServer;
let base: string;
let projectId: number;
/** The project owner's session cookie. */
let cookie: string;

/** The stream's route over real HTTP (imported once the environment is set). */
async function serveRoute(): Promise<RouteServer> {
  const { GET } = await import('@/app/api/projects/[projectId]/inbox/events/route');
  return serveRoutes([
    { method: 'GET', pattern: /^\/api\/projects\/(?<projectId>[^/]+)\/inbox\/events$/, handler: GET },
  ]);
}

const signUp = (email: string) => signUpForTest(db, email);

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  server = await serveRoute();
  base = server.url;
});
afterAll(async () => {
  server?.close();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

type Frame = SseFrame<{ clientId?: number; message?: { id: string; text: string } }>;
const open = (url: string, headers: Record<string, string>) => openSseStream<Frame['data']>(url, headers);

const say = async (platformId: string, text: string) =>
  handleEvent(
    await getEngineDeps(),
    projectId,
    { ref: simulatorClientRef(platformId, platformId) },
    { type: 'message', text },
  );

const texts = (frames: Frame[]) =>
  frames.flatMap((f) => (f.event === 'message' ? [f.data.message?.text] : []));

it('checks the session and the membership', async () => {
  const owner = await signUp('owner@example.com');
  cookie = owner.cookie;
  const stranger = await signUp('stranger@example.com');
  projectId = (
    await createProject(db, {
      name: 'stream',
      plan: 'business',
      owner: { email: 'owner@example.com', userId: owner.userId },
    })
  ).id;
  const other = await createProject(db, { name: 'other', plan: 'business' });
  const foreign = await db.client.create({ data: { projectId: other.id, platformId: 'x', clientType: 99 } });
  const url = `${base}/api/projects/${projectId}/inbox/events`;

  expect((await fetch(url)).status).toBe(401);
  expect((await fetch(url, { headers: { cookie: stranger.cookie } })).status).toBe(404);
  expect((await fetch(`${url}?clientId=${foreign.id}`, { headers: { cookie: owner.cookie } })).status).toBe(
    404,
  );
  expect((await fetch(`${url}?clientId=abc`, { headers: { cookie: owner.cookie } })).status).toBe(400);
  expect(
    (await fetch(`${base}/api/projects/0/inbox/events`, { headers: { cookie: owner.cookie } })).status,
  ).toBe(400);
});

it('streams the open conversation and the list, and resumes from Last-Event-ID', async () => {
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text: 'Echo', trigger: { alternatives: '' } }],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
  await say('ann', 'first');
  const ann = await db.client.findFirstOrThrow({ where: { projectId, platformId: 'user:ann' } });
  const url = `${base}/api/projects/${projectId}/inbox/events?clientId=${ann.id}`;

  const live = await open(url, { cookie });
  expect(live.status).toBe(200);
  await live.until((f) => f.some((e) => e.event === 'ready'), 'ready');
  await say('ann', 'second');
  await live.until((f) => texts(f).length === 2, "ann's message and the reply");
  expect(texts(live.frames)).toEqual(['second', 'Echo']);
  await say('bob', 'other conversation');
  const bob = await db.client.findFirstOrThrow({ where: { projectId, platformId: 'user:bob' } });
  await live.until((f) => f.some((e) => e.event === 'changed' && e.data.clientId === bob.id), "bob's change");
  expect(texts(live.frames)).toEqual(['second', 'Echo']);
  const annChanges = (f: Frame[]) => f.filter((e) => e.event === 'changed' && e.data.clientId === ann.id);
  const before = annChanges(live.frames).length;
  await pauseBot(db, projectId, ann.id);
  await live.until((f) => annChanges(f).length > before, 'the pause');
  const lastId = live.frames.filter((f) => f.id).at(-1)?.id;
  expect(lastId).toBe(live.frames.filter((f) => f.event === 'message').at(-1)?.data.message?.id);
  await live.close();

  // Away: two messages are stored (the bot is paused: nothing answers them).
  await say('ann', 'while away 1');
  await say('ann', 'while away 2');
  const resumed = await open(url, { cookie, 'last-event-id': lastId ?? '' });
  await resumed.until((f) => f.some((e) => e.event === 'ready'), 'ready after resuming');
  expect(resumed.frames.map((f) => f.event)).toEqual(['message', 'message', 'ready']);
  expect(texts(resumed.frames)).toEqual(['while away 1', 'while away 2']);
  await say('ann', 'back');
  await resumed.until((f) => texts(f).includes('back'), 'the live message after resuming');
  expect(texts(resumed.frames)).toEqual(['while away 1', 'while away 2', 'back']);
  await resumed.close();
});
