/**
 * `npm run bench -- list-import`: a CSV of BENCH_ROWS rows (default 100,000, the import's
 * maximum) imported into a list (server/contacts/list-import.ts), by client_id, by
 * platform_id + client_type and by phone; beside two baselines in the same run: parsing the
 * file alone, and the same members written by plain createMany calls of known ids. Each step's
 * time and peak memory (RSS and heap above the level before it, sampled every 10 ms). PGlite by
 * default (the database then runs in this process, so its memory counts too), PostgreSQL with
 * TEST_DATABASE_URL. Prints; never fails on time.
 */
import { decodeUtf8, parseListCsv } from '../lib/lists/list-csv';
import { importListMembers } from '../server/contacts/list-import';
import { createTestDatabase } from '../server/db/test-support';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BATCH = 5_000;

async function measure<T>(label: string, step: () => Promise<T>): Promise<T> {
  global.gc?.();
  const before = process.memoryUsage();
  let rss = before.rss;
  let heap = before.heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  }, 10);
  const t = performance.now();
  try {
    return await step();
  } finally {
    const ms = performance.now() - t;
    clearInterval(timer);
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`.padStart(7);
    console.log(
      `${label.padEnd(40)} ${(ms / 1000).toFixed(2).padStart(7)} s   peak RSS ${mb(rss)} (+${mb(rss - before.rss).trim()})   peak heap ${mb(heap)} (+${mb(heap - before.heapUsed).trim()})`,
    );
  }
}

export async function run() {
  const tdb = await createTestDatabase();
  try {
    const db = tdb.prisma;
    const projectId = (await db.project.create({ data: { name: 'bench', webhookSecret: 'whsec_bench' } })).id;
    const seedStart = performance.now();
    const ids: number[] = [];
    for (let from = 0; from < ROWS; from += BATCH) {
      const n = Math.min(BATCH, ROWS - from);
      const created = await db.client.createManyAndReturn({
        data: Array.from({ length: n }, (_, j) => ({
          projectId,
          platformId: String(10_000_000 + from + j),
          clientType: 1,
          groupId: 'shop_bot',
          name: `Client ${from + j}`,
        })),
        select: { id: true },
      });
      ids.push(...created.map((c) => c.id));
      await db.clientVariable.createMany({
        data: created.map((c, j) => {
          const value = `+1 555 ${String(from + j).padStart(7, '0')}`;
          return { projectId, clientId: c.id, name: 'phone', value, valueKey: value };
        }),
      });
    }
    console.log(
      `seeded ${ROWS} clients with phones in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    const files = {
      client_id: `client_id,note\n${ids.map((id) => `${id},row`).join('\n')}\n`,
      platform_id: `platform_id,client_type,group_id\n${ids.map((_, i) => `${10_000_000 + i},1,shop_bot`).join('\n')}\n`,
      phone: `phone\n${ids.map((_, i) => `+1 555 ${String(i).padStart(7, '0')}`).join('\n')}\n`,
    };
    const bytes = (text: string) => new TextEncoder().encode(text);
    console.log(`client_id file: ${(files.client_id.length / 1024 / 1024).toFixed(1)} MB`);

    await measure('baseline: decode + parse only', async () => {
      const parsed = parseListCsv(decodeUtf8(bytes(files.client_id))!);
      if (!parsed.ok || parsed.rows.length !== ROWS) throw new Error('parse failed');
    });
    const baseList = await db.clientList.create({ data: { projectId, name: 'baseline' } });
    await measure('baseline: plain createMany of the ids', async () => {
      for (let i = 0; i < ids.length; i += BATCH)
        await db.clientListMember.createMany({
          data: ids.slice(i, i + BATCH).map((clientId) => ({ listId: baseList.id, clientId, projectId })),
        });
    });

    for (const [mode, text] of Object.entries(files)) {
      const list = await db.clientList.create({ data: { projectId, name: mode } });
      const preview = await measure(`import by ${mode}: preview`, () =>
        importListMembers(db, projectId, list.id, bytes(text), { commit: false }),
      );
      if (preview.errorCount)
        throw new Error(`${mode}: ${preview.errorCount} errors, e.g. ${preview.errors[0]?.message}`);
      const done = await measure(`import by ${mode}: preview + commit`, () =>
        importListMembers(db, projectId, list.id, bytes(text), { commit: true }),
      );
      if (done.added !== ROWS) throw new Error(`${mode}: added ${done.added}`);
    }
  } finally {
    await tdb.close();
  }
}
