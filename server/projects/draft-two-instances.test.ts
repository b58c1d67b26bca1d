import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import type { Presence } from '@/lib/schema/draft-presence';
import { getDatabase, getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { liveHub } from '@/server/live/live-events';
import { connectLiveHub } from '@/server/live/live-transport';
import type { RouteServer } from '@/server/testing/route-server';
import { signUpForTest } from '@/server/testing/sign-up';
import { openSseStream } from '@/server/testing/sse-stream';
import { saveBotSchema } from './bot-schema-store';
import { createProject } from './project-service';
import {
  type DraftInstance,
  serveDraftRoutes,
  startDraftInstance,
  trpcOverHttp,
} from './testing/draft-routes';

/**
 * Designing together behind a load balancer (docs/architecture.md, "Designing together"): two
 * designers' canvases on different app instances of one database. A change sent through one
 * instance's `botSchema.change` reaches the other instance's `/bot/events` listeners as a `bot`
 * event, and that instance's `botSchema.changesSince` gives it; presence crosses the same way.
 * Over real HTTP; this test process is instance A, started as the web process starts its hub.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-draft-instances-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let a: RouteServer;

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  // As server/runtime does at start: in server mode the hub is joined to the other processes.
  await connectLiveHub(liveHub(), await getDatabase());
  a = await serveDraftRoutes();
});
afterAll(async () => {
  a?.close();
  await liveHub().close();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

type Frame = { revision?: number } & Partial<Presence>;

/** Ann (the owner) and Bob (an admin) on one bot, with their session cookies; each is named as their address. */
async function twoDesigners(name: string) {
  const ann = await signUpForTest(db, `ann@${name}.example.com`);
  const bob = await signUpForTest(db, `bob@${name}.example.com`);
  const { id: projectId } = await createProject(db, {
    name,
    owner: { email: `ann@${name}.example.com`, userId: ann.userId },
  });
  await db.projectMember.create({
    data: { projectId, userId: bob.userId, email: `bob@${name}.example.com`, role: 'admin' },
  });
  const bot = {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { id: 1, kind: 'start' },
      { id: 2, kind: 'state', text: '' },
    ],
    arrows: [],
  };
  const { revision } = await saveBotSchema(db, projectId, bot);
  return { projectId, ann, bob, revision };
}

/** A canvas on an instance: its live stream open (listening once `ready`) and its procedures. */
async function canvas(url: string, projectId: number, cookie: string) {
  const stream = await openSseStream<Frame>(`${url}/api/projects/${projectId}/bot/events`, { cookie });
  expect(stream.status).toBe(200);
  await stream.until((f) => f.some((e) => e.event === 'ready'), 'the stream to be ready');
  return { stream, trpc: trpcOverHttp(url, cookie) };
}

const textChange = (id: number, text: string) => [
  { entity: 'block' as const, op: 'set' as const, id, fields: { text }, base: { text: '' } },
];

describe('one instance', () => {
  it("a change through botSchema.change reaches the other designer's stream and changesSince", async () => {
    const { projectId, ann, bob, revision } = await twoDesigners('one');
    const annOnA = await canvas(a.url, projectId, ann.cookie);
    const bobOnA = await canvas(a.url, projectId, bob.cookie);
    const changed = await annOnA.trpc.botSchema.change.mutate({
      projectId,
      changes: textChange(2, 'Hello from Ann'),
      baseRevision: revision,
    });
    expect(changed.revision).toBe(revision + 1);
    await bobOnA.stream.until(
      (f) => f.some((e) => e.event === 'bot' && e.data.revision === changed.revision),
      "Ann's revision on Bob's stream",
    );
    const since = await bobOnA.trpc.botSchema.changesSince.query({ projectId, revision });
    expect(since.revision).toBe(changed.revision);
    expect(since.revisions?.map((r) => [r.revision, r.author])).toEqual([[changed.revision, 'ann']]);
    await annOnA.stream.close();
    await bobOnA.stream.close();
  });
});

// Several app instances share one PostgreSQL database (server mode). Embedded mode is one
// process by design (its data directory is locked), so there is no second instance to start.
describe.runIf(process.env.TEST_DATABASE_URL)('two app instances behind one database (PostgreSQL)', () => {
  let b: DraftInstance;
  beforeAll(async () => {
    // The same environment as this process's: DATABASE_URL and the secrets every instance shares.
    b = await startDraftInstance({});
  }, 120_000);
  afterAll(async () => {
    await b?.stop();
  });

  it("a change on one instance reaches the other instance's stream and changesSince, both ways", async () => {
    const { projectId, ann, bob, revision } = await twoDesigners('two');
    const annOnA = await canvas(a.url, projectId, ann.cookie);
    const bobOnB = await canvas(b.url, projectId, bob.cookie);

    const fromAnn = await annOnA.trpc.botSchema.change.mutate({
      projectId,
      changes: textChange(2, 'Hello from Ann'),
      baseRevision: revision,
    });
    await bobOnB.stream.until(
      (f) => f.some((e) => e.event === 'bot' && e.data.revision === fromAnn.revision),
      "Ann's revision on Bob's stream on B",
    );
    const onB = await bobOnB.trpc.botSchema.changesSince.query({ projectId, revision });
    expect(onB.revision).toBe(fromAnn.revision);
    expect(onB.revisions).toEqual([
      { revision: fromAnn.revision, author: 'ann', changes: [expect.objectContaining({ id: 2, op: 'set' })] },
    ]);
    expect(onB.revisions?.[0].changes?.[0]).toMatchObject({ fields: { text: 'Hello from Ann' } });

    const fromBob = await bobOnB.trpc.botSchema.change.mutate({
      projectId,
      changes: [{ entity: 'block', op: 'set', id: 1, fields: { text: 'Hi from Bob' }, base: { text: '' } }],
      baseRevision: fromAnn.revision,
    });
    expect(fromBob.revision).toBe(fromAnn.revision + 1);
    await annOnA.stream.until(
      (f) => f.some((e) => e.event === 'bot' && e.data.revision === fromBob.revision),
      "Bob's revision on Ann's stream on A",
    );
    const onA = await annOnA.trpc.botSchema.changesSince.query({ projectId, revision: fromAnn.revision });
    expect(onA.revision).toBe(fromBob.revision);
    expect(onA.revisions).toEqual([
      { revision: fromBob.revision, author: 'bob', changes: [expect.objectContaining({ id: 1, op: 'set' })] },
    ]);
    // Each saw the other's revision once, and its own too (a canvas skips the revisions it made).
    const bots = (frames: typeof annOnA.stream.frames) =>
      frames.filter((e) => e.event === 'bot').map((e) => e.data.revision);
    await annOnA.stream.until((f) => bots(f).length === 2, "Ann's two revisions on A");
    await bobOnB.stream.until((f) => bots(f).length === 2, "Bob's two revisions on B");
    expect(bots(annOnA.stream.frames)).toEqual([fromAnn.revision, fromBob.revision]);
    expect(bots(bobOnB.stream.frames)).toEqual([fromAnn.revision, fromBob.revision]);
    await annOnA.stream.close();
    await bobOnB.stream.close();
  });

  it("each designer's presence on one instance is seen on the other", async () => {
    const { projectId, ann, bob } = await twoDesigners('presence');
    const annOnA = await canvas(a.url, projectId, ann.cookie);
    const bobOnB = await canvas(b.url, projectId, bob.cookie);
    const presences = (frames: typeof annOnA.stream.frames) =>
      frames.filter((e) => e.event === 'presence').map((e) => e.data);

    await annOnA.trpc.botSchema.presence.mutate({
      projectId,
      tab: 'tab-of-ann',
      selection: [2],
      pointer: null,
    });
    await bobOnB.stream.until((f) => presences(f).length > 0, "Ann's presence on B");
    expect(presences(bobOnB.stream.frames)).toEqual([
      expect.objectContaining({ tab: 'tab-of-ann', name: 'ann', selection: [2], pointer: null, left: false }),
    ]);

    await bobOnB.trpc.botSchema.presence.mutate({
      projectId,
      tab: 'tab-of-bob',
      selection: [1],
      pointer: { x: 10, y: 20 },
      left: false,
    });
    await annOnA.stream.until((f) => presences(f).some((p) => p.tab === 'tab-of-bob'), "Bob's presence on A");
    expect(presences(annOnA.stream.frames).find((p) => p.tab === 'tab-of-bob')).toMatchObject({
      name: 'bob',
      selection: [1],
      pointer: { x: 10, y: 20 },
    });
    // Leaving is told across too: the other canvas drops the outline at once.
    await annOnA.trpc.botSchema.presence.mutate({
      projectId,
      tab: 'tab-of-ann',
      selection: [],
      pointer: null,
      left: true,
    });
    await bobOnB.stream.until((f) => presences(f).some((p) => p.left), "Ann's leaving on B");
    await annOnA.stream.close();
    await bobOnB.stream.close();
  });
});
