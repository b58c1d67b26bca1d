/**
 * `npm run bench -- co-editing`: saving one block's edit on a big bot (docs/builder.md, "Working
 * together") on PostgreSQL (BENCH_DATABASE_URL, default the local server), with a generated bot
 * of BENCH_CO_EDITING_BLOCKS blocks (default 5,000):
 *
 * - baseline, the same run: the whole bot saved, as the builder did at every edit before.
 * - one block's text changed, as a change (`applyDraftChanges`), each from the revision the
 *   previous one made; then the same from a revision 20 behind (the answer carries others' 20).
 * Goal: one block's edit commits in under 50 ms at the 95th percentile.
 *
 * Prints figures; never fails on time.
 */
import type { BotSchema } from '../lib/schema';
import { botSchemaSchema } from '../lib/schema';
import { diffDrafts } from '../lib/schema/draft-changes';
import type { PrismaClient } from '../server/db/client-type';
import { openDatabase } from '../server/db/database';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import { saveBotSchema } from '../server/projects/bot-schema-store';
import { applyDraftChanges } from '../server/projects/draft-changes-store';
import { createProject } from '../server/projects/project-service';
import { generateBot } from './canvas/generate-bot';

const BLOCKS = Number(process.env.BENCH_CO_EDITING_BLOCKS ?? 5000);
const EDITS = Number(process.env.BENCH_CO_EDITING_EDITS ?? 200);
const SAVES = Number(process.env.BENCH_CO_EDITING_SAVES ?? 5);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const AUTHOR = { id: null, name: 'bench' };

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
  } finally {
    await database.close();
    await dropServerDatabase(serverUrl, url);
  }
}
