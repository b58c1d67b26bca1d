/**
 * `npm run bench -- co-editing`: saving one block's edit on a big bot (docs/builder.md, "Working
 * together") on PostgreSQL (BENCH_DATABASE_URL, default the local server), with a generated bot
 * of BENCH_CO_EDITING_BLOCKS blocks (default 5,000):
 *
 * - baseline, the same run: the whole bot saved, as the builder did at every edit before.
 * - one block's text changed, as a change (`applyDraftChanges`), each from the revision the
 *   previous one made; then the same from a revision 20 behind (the answer carries others' 20).
 * Goal: one block's edit commits in under 50 ms at the 95th percentile.
 * - propagation: two app instances on the database (processes of their own, started as the web
 *   process starts: server/projects/fixtures/draft-instance.ts). A designer sends one block's
 *   edit through instance A's `botSchema.change` over HTTP; two other designers' canvases listen,
 *   one on A's `/bot/events` and one on B's (the event crosses by PostgreSQL NOTIFY), and each
 *   reads the revision with its instance's `botSchema.changesSince` when told. Timed from the
 *   send until each has the change (what a canvas then applies in the browser is not counted).
 * Goal: every canvas has the change within 300 ms at the 95th percentile, on one instance and
 * across instances.
 * - taking a colleague's edit in (the browser's part): `applyOthersChanges` over a canvas's
 *   present and 200 undo steps (Undo is one's own), beside the present alone.
 *
 * Prints figures; never fails on time.
 */
import type { BotSchema } from '../lib/schema';
import { botSchemaSchema } from '../lib/schema';
import { applyOthersChanges, diffDrafts } from '../lib/schema/draft-changes';
import type { PrismaClient } from '../server/db/client-type';
import { openDatabase } from '../server/db/database';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import { saveBotSchema } from '../server/projects/bot-schema-store';
import { applyDraftChanges } from '../server/projects/draft-changes-store';
import { createProject } from '../server/projects/project-service';
import {
  type DraftInstance,
  startDraftInstance,
  trpcOverHttp,
} from '../server/projects/testing/draft-routes';
import { openSseStream } from '../server/testing/sse-stream';
import { waitFor } from '../server/testing/wait-for';
import { generateBot } from './canvas/generate-bot';

const BLOCKS = Number(process.env.BENCH_CO_EDITING_BLOCKS ?? 5000);
const EDITS = Number(process.env.BENCH_CO_EDITING_EDITS ?? 200);
const SAVES = Number(process.env.BENCH_CO_EDITING_SAVES ?? 5);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const AUTHOR = { id: null, name: 'bench' };
/** Propagation's goal: every canvas has one's change within this, at the 95th percentile. */
const PROPAGATION_GOAL_MS = 300;

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const ms = (value: number) => `${value.toFixed(1)} ms`;
const line = (name: string, values: number[]) =>
  console.log(
    `${name.padEnd(46)} p50 ${ms(quantile(values, 0.5)).padStart(9)}   p95 ${ms(quantile(values, 0.95)).padStart(9)}   max ${ms(Math.max(...values)).padStart(9)}`,
  );

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** The bot with block `index`'s text changed. */
const withText = (schema: BotSchema, index: number, text: string): BotSchema => ({
  ...schema,
  blocks: schema.blocks.map((b, i) => (i === index ? { ...b, text } : b)),
});

export async function run(): Promise<void> {
  const url = await createServerDatabase(serverUrl);
  const database = await openDatabase({ mode: 'server', url });
  try {
    const db: PrismaClient = database.prisma;
    const schema = botSchemaSchema.parse(generateBot(BLOCKS));
    const project = await createProject(db, { name: 'co-editing bench', plan: 'business' });
    console.log(`a bot of ${schema.blocks.length} blocks and ${schema.arrows.length} arrows`);

    let { revision } = await saveBotSchema(db, project.id, schema);
    const saves: number[] = [];
    for (let r = 1; r <= SAVES; r++)
      saves.push(
        await timed(
          async () => ({ revision } = await saveBotSchema(db, project.id, withText(schema, 0, `save ${r}`))),
        ),
      );
    line(`baseline: the whole bot saved (${SAVES})`, saves);

    const edit = async (i: number, base: number) => {
      const index = (i * 37) % schema.blocks.length;
      const changes = diffDrafts(schema, withText(schema, index, `edit ${i}`));
      return applyDraftChanges(db, project.id, { changes, baseRevision: base }, AUTHOR);
    };
    // A few first, not counted (connections, plans).
    for (let i = 0; i < 10; i++) ({ revision } = await edit(i, revision));
    const edits: number[] = [];
    for (let i = 0; i < EDITS; i++)
      edits.push(await timed(async () => ({ revision } = await edit(i, revision))));
    line(`one block's edit, as a change (${EDITS})`, edits);
    const behind: number[] = [];
    for (let i = 0; i < EDITS; i++)
      behind.push(await timed(async () => ({ revision } = await edit(i, revision - 20))));
    line(`the same, 20 revisions behind (${EDITS})`, behind);
    const p95 = quantile(edits, 0.95);
    console.log(
      `one block's edit p95 ${ms(p95)} (goal under 50 ms): ${p95 < 50 ? 'met' : 'not met'}; ${(quantile(saves, 0.5) / quantile(edits, 0.5)).toFixed(0)}× faster than the whole save at the median`,
    );
    await takingIn(schema);
    await propagation(db, url, project.id, schema, revision);
  } finally {
    await database.close();
    await dropServerDatabase(serverUrl, url);
  }
}

/** A colleague's edit taken into a canvas with 200 undo steps of its own edits, and into its present alone. */
async function takingIn(schema: BotSchema) {
  const steps = [schema];
  for (let i = 1; i <= 200; i++)
    steps.push(withText(steps[i - 1], (i * 37) % schema.blocks.length, `step ${i}`));
  const theirs = (i: number) =>
    diffDrafts(schema, withText(schema, (i * 53) % schema.blocks.length, `theirs ${i}`));
  const present: number[] = [];
  const history: number[] = [];
  for (let i = 0; i < 50; i++) {
    const changes = theirs(i);
    present.push(await timed(async () => applyOthersChanges(steps[200], changes, true)));
    history.push(
      await timed(async () => steps.map((step, s) => applyOthersChanges(step, changes, s === 200))),
    );
  }
  line("baseline: a colleague's edit into the present (50)", present);
  line('the same into the present and 200 undo steps (50)', history);
}

/**
 * A canvas that follows the draft as the builder's does: told a revision by its instance's
 * stream, it reads what it has not seen with changesSince (one read at a time, another after it
 * when told meanwhile), and notes when it had each revision.
 */
async function follow(url: string, cookie: string, projectId: number, from: number) {
  const trpc = trpcOverHttp(url, cookie);
  const had = new Map<number, number>();
  let known = from;
  let reading = false;
  let again = false;
  const read = async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    do {
      again = false;
      const since = await trpc.botSchema.changesSince.query({ projectId, revision: known });
      const at = performance.now();
      for (const r of since.revisions ?? []) if (r.changes) had.set(r.revision, at);
      known = Math.max(known, since.revision);
    } while (again);
    reading = false;
  };
  const stream = await openSseStream<{ revision?: number }>(
    `${url}/api/projects/${projectId}/bot/events`,
    { cookie },
    (frame) => {
      if (frame.event === 'bot' && (frame.data.revision ?? 0) > known) void read();
    },
  );
  if (stream.status !== 200) throw new Error(`the stream answered ${stream.status}`);
  await stream.until((f) => f.some((e) => e.event === 'ready'), 'the stream to be ready');
  return { had, close: () => stream.close() };
}

async function propagation(
  db: PrismaClient,
  url: string,
  projectId: number,
  schema: BotSchema,
  from: number,
) {
  // The environment every instance shares (server mode's secrets), and this process's for signing up.
  const env = {
    DATABASE_URL: url,
    BLOCKBOT_AUTH_SECRET: 'bench-secret-'.padEnd(40, 'x'),
    BLOCKBOT_ENCRYPTION_KEY: 'cd'.repeat(32),
    BLOCKBOT_SIGNUP: 'open',
    BLOCKBOT_AUTH_RATE_LIMIT: 'off',
  };
  Object.assign(process.env, env);
  const { resetEnvCache } = await import('../server/config/env');
  resetEnvCache();
  const { signUpForTest } = await import('../server/testing/sign-up');
  const { closeDb, getDb } = await import('../server/db');
  const instances: DraftInstance[] = [];
  try {
    const designer = async (email: string) => {
      const { cookie, userId } = await signUpForTest(await getDb(), email);
      await db.projectMember.create({ data: { projectId, userId, email, role: 'admin' } });
      return cookie;
    };
    const [editor, onA, onB] = [
      await designer('ann@bench.example.com'),
      await designer('bob@bench.example.com'),
      await designer('eve@bench.example.com'),
    ];
    instances.push(await startDraftInstance(env), await startDraftInstance(env));
    const [a, b] = instances;
    const send = trpcOverHttp(a.url, editor);
    const same = await follow(a.url, onA, projectId, from);
    const across = await follow(b.url, onB, projectId, from);
    let revision = from;
    const timings = { same: [] as number[], across: [] as number[] };
    for (let i = -10; i < EDITS; i++) {
      const index = (Math.abs(i) * 53) % schema.blocks.length;
      const changes = diffDrafts(schema, withText(schema, index, `propagated ${i}`));
      const start = performance.now();
      ({ revision } = await send.botSchema.change.mutate({ projectId, changes, baseRevision: revision }));
      const r = revision;
      await waitFor(async () => same.had.has(r) && across.had.has(r), `revision ${r} on both canvases`);
      // The first few are not counted (connections, plans).
      if (i < 0) continue;
      timings.same.push((same.had.get(r) ?? 0) - start);
      timings.across.push((across.had.get(r) ?? 0) - start);
    }
    console.log(`propagation, ${EDITS} edits sent through instance A's tRPC (HTTP):`);
    line('  a canvas on the same instance (A)', timings.same);
    line('  a canvas on another instance (B, NOTIFY)', timings.across);
    const [p95Same, p95Across] = [quantile(timings.same, 0.95), quantile(timings.across, 0.95)];
    const met = Math.max(p95Same, p95Across) < PROPAGATION_GOAL_MS;
    console.log(
      `propagation p95 ${ms(p95Same)} on one instance, ${ms(p95Across)} across instances (goal under ${PROPAGATION_GOAL_MS} ms): ${met ? 'met' : 'not met'}`,
    );
    await same.close();
    await across.close();
  } finally {
    for (const instance of instances) await instance.stop();
    await closeDb();
  }
}
