import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import type { RouteServer } from '@/server/testing/route-server';
import { signUpForTest } from '@/server/testing/sign-up';
import { openSseStream } from '@/server/testing/sse-stream';
import { saveBotSchema } from './bot-schema-store';
import { applyDraftChanges } from './draft-changes-store';
import { announcePresence } from './draft-presence';
import { createProject } from './project-service';
import { serveDraftRoutes } from './testing/draft-routes';

/**
 * The builder's live stream over real HTTP: the session and membership checks, a `bot` event
 * for each revision of the draft (a change, a whole save), another designer's presence, and
 * nothing of another project.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-draft-stream-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let server: RouteServer;

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  server = await serveDraftRoutes();
});
afterAll(async () => {
  server?.close();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

it("tells a member of each revision and of the others' presence, and no one else", async () => {
  const owner = await signUpForTest(db, 'owner@example.com');
  const stranger = await signUpForTest(db, 'stranger@example.com');
  const { id: projectId } = await createProject(db, {
    name: 'stream',
    owner: { email: 'owner@example.com', userId: owner.userId },
  });
  const other = await createProject(db, { name: 'other' });
  const url = `${server.url}/api/projects/${projectId}/bot/events`;
  expect((await fetch(url)).status).toBe(401);
  expect((await fetch(url, { headers: { cookie: stranger.cookie } })).status).toBe(404);

  const stream = await openSseStream<{ revision?: number; name?: string; selection?: number[] }>(url, {
    cookie: owner.cookie,
  });
  expect(stream.status).toBe(200);
  await stream.until((f) => f.some((e) => e.event === 'ready'), 'ready');

  const bot = { format: BOT_SCHEMA_FORMAT, blocks: [{ id: 1, kind: 'start' }], arrows: [] };
  const { revision } = await saveBotSchema(db, projectId, bot);
  await saveBotSchema(db, other.id, bot);
  const changed = await applyDraftChanges(
    db,
    projectId,
    {
      changes: [{ entity: 'block', op: 'set', id: 1, fields: { text: 'Hello' }, base: { text: '' } }],
      baseRevision: revision,
    },
    { id: null, name: 'Ann' },
  );
  announcePresence(projectId, { id: 7, name: 'Ann' }, { tab: 'tab-of-ann', selection: [1], pointer: null });
  announcePresence(other.id, { id: 8, name: 'Bob' }, { tab: 'tab-of-bob', selection: [1], pointer: null });
  await stream.until((f) => f.some((e) => e.event === 'presence'), "Ann's presence");
  expect(stream.frames.filter((e) => e.event === 'bot').map((e) => e.data.revision)).toEqual([
    revision,
    changed.revision,
  ]);
  expect(stream.frames.filter((e) => e.event === 'presence').map((e) => e.data)).toEqual([
    {
      tab: 'tab-of-ann',
      memberId: 7,
      name: 'Ann',
      selection: [1],
      pointer: null,
      wantsPointers: false,
      left: false,
    },
  ]);
  await stream.close();
});
