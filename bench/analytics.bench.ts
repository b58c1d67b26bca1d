/**
 * `npm run bench -- analytics`: the canvas overlay's figures (docs/analytics.md) for a published
 * bot of BENCH_ANALYTICS_BLOCKS blocks (default 200) with 1,000,000 block entries by 100,000
 * clients over 30 days, on PostgreSQL (BENCH_DATABASE_URL, default the local server): the
 * daily counts as the roll-up leaves them, and the clients' last blocks. Beside the baseline of
 * the same run: the same figures (entries and unique clients by block) counted from 1,000,000
 * engine log rows, as a read that scanned the history would. Goal: under 300 ms.
 *
 * Prints figures; never fails on time.
 */
import { visitorsOf, visitorsToHex } from '../lib/analytics/visitors';
import { BOT_SCHEMA_FORMAT } from '../lib/schema';
import { flowAnalytics } from '../server/analytics/flow-analytics';
import { openDatabase } from '../server/db/database';
import { plainSql } from '../server/db/raw-sql';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import { createProject } from '../server/projects/project-service';
import { saveAndPublish } from '../server/versions/bot-versions';

const BLOCKS = Number(process.env.BENCH_ANALYTICS_BLOCKS ?? 200);
const ENTRIES = 1_000_000;
const CLIENTS = 100_000;
const DAYS = 30;
const RUNS = Number(process.env.BENCH_ANALYTICS_RUNS ?? 15);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)];

/** A deterministic stream of numbers in [0, 1), so every run seeds the same data. */
function seeded(seed: number) {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0;
    return s / 2 ** 32;
  };
}

const dayOf = (i: number) => new Date(Date.UTC(2026, 9, 1 + i)).toISOString().slice(0, 10);

export async function run(): Promise<void> {
  const url = await createServerDatabase(serverUrl);
  const database = await openDatabase({ mode: 'server', url });
  try {
    const db = database.prisma;
    const sql = plainSql(db);
    const project = await createProject(db, { name: 'analytics bench', plan: 'business' });
    await saveAndPublish(db, project.id, {
      format: BOT_SCHEMA_FORMAT,
      blocks: Array.from({ length: BLOCKS }, (_, i) => ({
        id: i + 1,
        kind: i === 0 ? ('start' as const) : ('state' as const),
        text: `Block ${i + 1}`,
        ...(i === 0 ? { trigger: { alternatives: '' } } : {}),
      })),
      arrows: Array.from({ length: BLOCKS - 1 }, (_, i) => ({
        id: i + 1,
        from: i + 1,
        to: i + 2,
        kind: 'unconditional' as const,
      })),
    });

    // Entries fall off along the flow, as in a real bot: the first blocks see most clients.
    const random = seeded(7);
    const weight = (b: number) => 1 / (1 + b / 10);
    const total = Array.from({ length: BLOCKS }, (_, b) => weight(b)).reduce((a, w) => a + w, 0);
    const rows: object[] = [];
    let seededEntries = 0;
    for (let d = 0; d < DAYS; d++)
      for (let b = 0; b < BLOCKS; b++) {
        const count = Math.round((ENTRIES / DAYS) * (weight(b) / total));
        if (!count) continue;
        seededEntries += count;
        const clients = Array.from(
          { length: Math.ceil(count * 0.8) },
          () => Math.floor(random() * CLIENTS) + 1,
        );
        rows.push({
          day: dayOf(d),
          kind: 'block',
          targetId: b + 1,
          count,
          visitors: visitorsToHex(visitorsOf(clients)),
        });
        if (b + 1 < BLOCKS)
          rows.push({
            day: dayOf(d),
            kind: 'arrow',
            targetId: b + 1,
            count: Math.round(count * 0.9),
            visitors: '',
          });
      }
    for (let i = 0; i < rows.length; i += 2000)
      await sql.query(
        `INSERT INTO "FlowCount" ("projectId", version, day, kind, "targetId", count, visitors)
         SELECT $1, 1, r.day, r.kind, r."targetId", r.count, decode(r.visitors, 'hex')
         FROM jsonb_to_recordset($2::jsonb) AS r(day date, kind text, "targetId" int, count int, visitors text)`,
        [project.id, JSON.stringify(rows.slice(i, i + 2000))],
      );
    // The clients, each standing in a block with its last block entered in the range; and the
    // baseline's history: one engine log row per entry.
    await sql.query(
      `INSERT INTO "Client" ("projectId", "platformId", "clientType", "currentBlockId", "lastBlockAt", "updatedAt")
       SELECT $1, 'c' || g, 5, 1 + (g * 7919) % $2, timestamp '2026-10-01' + (g % ($3 * 24 * 60)) * interval '1 minute', now()
       FROM generate_series(1, $4) g`,
      [project.id, BLOCKS, DAYS, CLIENTS],
    );
    const firstClient = Number(
      (await sql.query(`SELECT min(id) AS id FROM "Client" WHERE "projectId" = $1`, [project.id]))[0].id,
    );
    await sql.query(
      `INSERT INTO "EngineLogEntry" ("projectId", "clientId", kind, data, "createdAt")
       SELECT $1, $2 + (g * 31) % $3, 'block', jsonb_build_object('blockId', 1 + floor(power((g * 0.618034) % 1, 2) * $4)::int),
         timestamp '2026-10-01' + (g % ($5 * 24 * 3600)) * interval '1 second'
       FROM generate_series(1, $6) g`,
      [project.id, firstClient, CLIENTS, BLOCKS, DAYS, seededEntries],
    );
    await sql.query('ANALYZE');
    console.log(
      `${BLOCKS} blocks, ${seededEntries.toLocaleString('en')} block entries by ${CLIENTS.toLocaleString('en')} clients over ${DAYS} days (${rows.length.toLocaleString('en')} daily counts), ${RUNS} runs each`,
    );

    const query = { from: dayOf(0), to: dayOf(DAYS - 1), stoppedAfterMinutes: 60 };
    const scan = () =>
      sql.query(
        `SELECT data->>'blockId' AS block, count(*) AS entries, count(DISTINCT "clientId") AS clients
         FROM "EngineLogEntry" WHERE "projectId" = $1 AND kind = 'block' AND "createdAt" >= $2::date AND "createdAt" < $3::date + 1
         GROUP BY 1`,
        [project.id, query.from, query.to],
      );
    const overlay = () => flowAnalytics(db, project.id, query);
    // A run of each first, not counted (connections, JIT, caches).
    const check = await overlay();
    await scan();
    const times = { overlay: [] as number[], scan: [] as number[] };
    for (let r = 0; r < RUNS; r++) {
      for (const [name, fn] of [
        ['overlay', overlay],
        ['scan', scan],
      ] as const) {
        const start = performance.now();
        await fn();
        times[name].push(performance.now() - start);
      }
    }
    const entries = check.blocks.reduce((sum, b) => sum + b.entries, 0);
    console.log(
      `overlay (daily counts):        median ${median(times.overlay).toFixed(0)} ms   p95 ${p95(times.overlay).toFixed(0)} ms   (${entries.toLocaleString('en')} entries, ${check.blocks[0].clients.toLocaleString('en')} clients in block 1; goal < 300 ms)`,
    );
    console.log(
      `baseline (scan of the log):    median ${median(times.scan).toFixed(0)} ms   p95 ${p95(times.scan).toFixed(0)} ms`,
    );
  } finally {
    await database.close();
    await dropServerDatabase(serverUrl, url);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
