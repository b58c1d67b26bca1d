/**
 * `npm run bench -- engine`: simulated clients send messages through the whole engine path
 * (event in, formula, reply stored) on PostgreSQL (BENCH_DATABASE_URL, default the local
 * server) and on PGlite, beside a baseline doing only the bare writes one message needs with
 * `pg` directly. After a round of each to warm up, engine and baseline take turns, round by
 * round, so a machine whose load changes during the run weighs on both alike. Prints figures;
 * never fails on time.
 */
import pg from 'pg';
import { BOT_SCHEMA_FORMAT } from '../lib/schema';
import { simulatorClientRef } from '../server/channels/simulator/simulator-service';
import { type Database, openDatabase } from '../server/db/database';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import type { EngineDeps } from '../server/engine/engine-deps';
import { handleEvent } from '../server/engine/handle-event';
import { saveBotSchema } from '../server/projects/bot-schema-store';
import { createProject } from '../server/projects/project-service';

const CLIENTS = 50;
const MESSAGES_PER_CLIENT = Number(process.env.BENCH_MESSAGES ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

type SendOne = (client: number, i: number) => Promise<void>;

/** Latencies and wall time of the rounds of one contender. */
class Tally {
  readonly latencies: number[] = [];
  ms = 0;

  report(name: string) {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
    const rate = (sorted.length / this.ms) * 1000;
    console.log(
      `${name.padEnd(30)} ${rate.toFixed(0).padStart(6)} msg/s   p50 ${p(0.5)} ms   p99 ${p(0.99)} ms`,
    );
    return rate;
  }
}

/** Each client sends its messages one after another; all clients at once. */
async function round(send: SendOne, tally: Tally, messages = MESSAGES_PER_CLIENT) {
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; i < messages; i++) {
        const t = performance.now();
        await send(client, i);
        tally.latencies.push(performance.now() - t);
      }
    }),
  );
  tally.ms += performance.now() - start;
}

/** A bot of one start block that counts the characters it was sent; its clients' first contact. */
async function engineSender(db: Database, label: string): Promise<SendOne> {
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
  const send: SendOne = (c, i) =>
    handleEvent(
      deps,
      project.id,
      { ref: simulatorClientRef(`c${c}`, `c${c}`) },
      { type: 'message', text: `message ${i}` },
    ).then(() => {});
  // The first message creates the client and compiles the bot; the baseline's clients exist too.
  const firstContact = new Tally();
  await round(send, firstContact, 1);
  firstContact.report(`  first contact on ${label}`);
  return send;
}

async function baselineSender(pool: pg.Pool): Promise<SendOne> {
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
  return async (c, i) => {
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
  };
}

export async function run(): Promise<void> {
  console.log(`${CLIENTS} concurrent clients × ${MESSAGES_PER_CLIENT} messages × ${ROUNDS} rounds`);
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
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    const engine = await engineSender(server, 'PostgreSQL');
    const baseline = await baselineSender(pool);
    // A round of each first, not counted: both run warmed up (JIT, connections, caches).
    await round(engine, new Tally());
    await round(baseline, new Tally());
    const ours = new Tally();
    const bare = new Tally();
    for (let r = 0; r < ROUNDS; r++) {
      await round(engine, ours);
      await round(baseline, bare);
    }
    const rate = ours.report('engine on PostgreSQL');
    const base = bare.report('baseline: bare pg writes');
    console.log(
      `engine / baseline throughput on PostgreSQL: ${((rate / base) * 100).toFixed(0)} % (goal ≥ 40 %, p99 < 50 ms)`,
    );
    await pool.end();
    await server.close();
    await dropServerDatabase(serverUrl, url);
  }
  const embedded = await openDatabase({ mode: 'embedded', dataDir: null });
  const engine = await engineSender(embedded, 'PGlite');
  await round(engine, new Tally());
  const ours = new Tally();
  for (let r = 0; r < ROUNDS; r++) await round(engine, ours);
  ours.report('engine on PGlite (in memory)');
  await embedded.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
