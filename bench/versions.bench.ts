/**
 * `npm run bench -- versions`: draft and published (docs/versions.md) on PostgreSQL
 * (BENCH_DATABASE_URL, default the local server) with a generated bot of BENCH_VERSIONS_BLOCKS
 * blocks (default 5,000):
 *
 * 1. Publishing it (checks, lint, the snapshot), beside the baseline of the same run: saving the
 *    same bot as the draft, which the builder does at every edit. Goal: publish under 1 s.
 * 2. The first message after a publish (the engine compiles the new version once) beside the
 *    messages after it, which find it compiled.
 *
 * Prints figures; never fails on time.
 */
import type { BotSchema } from '../lib/schema';
import { botSchemaSchema } from '../lib/schema';
import type { PrismaClient } from '../server/db/client-type';
import { openDatabase } from '../server/db/database';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import type { EngineDeps } from '../server/engine/engine-deps';
import { handleEvent } from '../server/engine/handle-event';
import { saveBotSchema } from '../server/projects/bot-schema-store';
import { createProject } from '../server/projects/project-service';
import { publishDraft } from '../server/versions/bot-versions';
import { generateBot } from './canvas/generate-bot';

const BLOCKS = Number(process.env.BENCH_VERSIONS_BLOCKS ?? 5000);
const RUNS = Number(process.env.BENCH_VERSIONS_RUNS ?? 5);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const BY = { userId: null, name: 'bench' };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** The bot with its first block's text changed: a new draft with something to publish. */
const edited = (schema: BotSchema, run: number): BotSchema => ({
  ...schema,
  blocks: schema.blocks.map((b, i) => (i === 0 ? { ...b, text: `${b.text} (${run})` } : b)),
});

export async function run(): Promise<void> {
  const url = await createServerDatabase(serverUrl);
  const database = await openDatabase({ mode: 'server', url });
  try {
    const db: PrismaClient = database.prisma;
    const schema = botSchemaSchema.parse(generateBot(BLOCKS));
    const project = await createProject(db, { name: 'versions bench', plan: 'business' });
    console.log(
      `a bot of ${schema.blocks.length} blocks and ${schema.arrows.length} arrows, ${RUNS} runs each`,
    );

    // A run of each first, not counted (connections, JIT).
    await saveBotSchema(db, project.id, edited(schema, 0));
    await publishDraft(db, project.id, BY);
    const saves: number[] = [];
    const publishes: number[] = [];
    for (let r = 1; r <= RUNS; r++) {
      saves.push(await timed(() => saveBotSchema(db, project.id, edited(schema, r))));
      publishes.push(await timed(() => publishDraft(db, project.id, BY)));
    }
    console.log(
      `baseline: saving the draft          median ${ms(median(saves))}   max ${ms(Math.max(...saves))}`,
    );
    console.log(
      `publishing it                       median ${ms(median(publishes))}   max ${ms(Math.max(...publishes))}   (goal under 1 s)`,
    );

    const deps: EngineDeps = {
      db,
      http: async () => {
        throw new Error('no requests in this bench');
      },
      scheduler: { schedule: async () => null, cancel: async () => {} },
      now: () => new Date(),
    };
    const say = (i: number) =>
      timed(() =>
        handleEvent(
          deps,
          project.id,
          { ref: { clientType: 1, groupId: 'bench_bot', platformId: `c${i % 10}`, name: 'c' } },
          { type: 'message', text: `hello ${i}` },
        ),
      );
    const firsts: number[] = [];
    const later: number[] = [];
    for (let r = 1; r <= RUNS; r++) {
      await saveBotSchema(db, project.id, edited(schema, 100 + r));
      await publishDraft(db, project.id, BY);
      firsts.push(await say(r * 100));
      for (let i = 1; i <= 10; i++) later.push(await say(r * 100 + i));
    }
    console.log(`a message after it, compiled already median ${ms(median(later))}`);
    console.log(
      `the first message after a publish   median ${ms(median(firsts))}   (compiles the version once)`,
    );
  } finally {
    await database.close();
    await dropServerDatabase(serverUrl, url);
  }
}
