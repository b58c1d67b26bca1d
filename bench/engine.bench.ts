/**
 * `npm run bench -- engine`: simulated clients send messages through the whole engine path
 * (event in, formula, reply stored) on PostgreSQL (BENCH_DATABASE_URL, default the local
 * server) and on PGlite, beside a baseline doing only the bare writes one message needs with
 * `pg` directly. Prints figures; never fails on time.
 */
import pg from 'pg';
import { BOT_SCHEMA_FORMAT } from '../lib/schema';
import { saveBotSchema } from '../server/bot-schema/bot-schema-store';
import { type Database, openDatabase } from '../server/db/database';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import type { EngineDeps } from '../server/engine/engine-deps';
import { handleEvent } from '../server/engine/handle-event';
import { createProject } from '../server/projects/project-service';
import { simulatorClientRef } from '../server/simulator/simulator-service';

const CLIENTS = 50;
const MESSAGES_PER_CLIENT = Number(process.env.BENCH_MESSAGES ?? 20);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

function report(name: string, latencies: number[], ms: number) {
  latencies.sort((a, b) => a - b);
  const p = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  const rate = (latencies.length / ms) * 1000;
  console.log(
    `${name.padEnd(28)} ${rate.toFixed(0).padStart(6)} msg/s   p50 ${p(0.5)} ms   p99 ${p(0.99)} ms`,
  );
  return rate;
}

async function concurrently(perClient: (client: number, i: number) => Promise<void>) {
  const latencies: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; i < MESSAGES_PER_CLIENT; i++) {
        const t = performance.now();
        await perClient(client, i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies, ms: performance.now() - start };
}

async function engine(db: Database, label: string) {
  const project = await createProject(db.prisma, { name: 'bench', plan: 'business' });
  await saveBotSchema(db.prisma, project.id, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: 'Total #{total}',
        trigger: { alternatives: '' },
        formula: 'total = int(if(total, total, 0)) + len(question)',
      },
    ],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
  const deps: EngineDeps = {
    db: db.prisma,
    http: async () => {
      throw new Error('no requests in this bench');
    },
    scheduler: { schedule: async () => null, cancel: async () => {} },
    now: () => new Date(),
  };
  const { latencies, ms } = await concurrently((c, i) =>
    handleEvent(
      deps,
      project.id,
      { ref: simulatorClientRef(`c${c}`, `c${c}`) },
      { type: 'message', text: `message ${i}` },
    ).then(() => {}),
  );
  return report(`engine on ${label}`, latencies, ms);
}

async function baseline(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const { rows } = await pool.query(
    `INSERT INTO "Project" (name, "webhookSecret", "updatedAt") VALUES ('baseline', 'x', now()) RETURNING id`,
  );
  const projectId = rows[0].id;
  const clients: number[] = [];
  for (let c = 0; c < CLIENTS; c++) {
    const r = await pool.query(
      `INSERT INTO "Client" ("projectId", "platformId", "clientType", "updatedAt") VALUES ($1, $2, 99, now()) RETURNING id`,
      [projectId, `b${c}`],
    );
    clients.push(r.rows[0].id);
  }
  const { latencies, ms } = await concurrently(async (c, i) => {
    await pool.query(
      `INSERT INTO "Message" ("projectId", "clientId", direction, text) VALUES ($1, $2, 'in', $3)`,
      [projectId, clients[c], `message ${i}`],
    );
    await pool.query(
      `INSERT INTO "Message" ("projectId", "clientId", direction, text) VALUES ($1, $2, 'out', $3)`,
      [projectId, clients[c], 'reply'],
    );
    await pool.query(`UPDATE "Client" SET "currentBlockId" = 1, "lastMessageAt" = now() WHERE id = $1`, [
      clients[c],
    ]);
  });
  await pool.end();
  return report('baseline: bare pg writes', latencies, ms);
}

export async function run(): Promise<void> {
  console.log(`${CLIENTS} concurrent clients × ${MESSAGES_PER_CLIENT} messages`);
  let url: string | undefined;
  try {
    url = await createServerDatabase(serverUrl);
  } catch (error) {
    console.log(
      `PostgreSQL at ${serverUrl} is not reachable (${(error as Error).message}); PostgreSQL figures skipped.`,
    );
  }
  if (url) {
    const server = await openDatabase({ mode: 'server', url });
    const ours = await engine(server, 'PostgreSQL');
    await server.close();
    const base = await baseline(url);
    console.log(
      `engine / baseline throughput on PostgreSQL: ${((ours / base) * 100).toFixed(0)} % (goal ≥ 40 %)`,
    );
    await dropServerDatabase(serverUrl, url);
  }
  const embedded = await openDatabase({ mode: 'embedded', dataDir: null });
  await engine(embedded, 'PGlite (in memory)');
  await embedded.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
