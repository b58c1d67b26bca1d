/**
 * `npm run bench -- engine`: simulated clients send messages through the whole engine path
 * (event in, formula, reply stored) on PostgreSQL (BENCH_DATABASE_URL, default the local
 * server) and on PGlite, beside a baseline doing only the bare writes one message needs with
 * `pg` directly, and first contacts (each message from a client never seen before) beside
 * known clients' messages. After a round of each to warm up, they take turns, round by round,
 * so a machine whose load changes during the run weighs on all alike. Prints figures; never
 * fails on time.
 *
 * After the warm-up the database's statistics are taken (`VACUUM ANALYZE`, as pgbench does before
 * its run). The database is new, and PostgreSQL keeps a prepared statement's generic plan, made
 * while the tables held a few rows, until its tables are analyzed: autovacuum does that within a
 * minute of the first thousand clients in a real deployment, but this run is over by then, and
 * the claim would look a known client up among all the project's clients.
 */
import pg from 'pg';
import { CLIENT_TYPES } from '../lib/channels/descriptors';
import { BOT_SCHEMA_FORMAT } from '../lib/schema';
import { rollUpFlowHits } from '../server/analytics/roll-up';
import { type Database, openDatabase } from '../server/db/database';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import type { EngineDeps } from '../server/engine/engine-deps';
import { handleEvent } from '../server/engine/handle-event';
import { createProject } from '../server/projects/project-service';
import { saveAndPublish } from '../server/versions/bot-versions';

const CLIENTS = 50;
const MESSAGES_PER_CLIENT = Number(process.env.BENCH_MESSAGES ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

type SendOne = (client: number, i: number) => Promise<void>;

interface Rates {
  /** Messages a second. */
  rate: number;
  /** The 99th percentile of one message's latency, in ms. */
  p99: number;
}

/** Latencies and wall time of the rounds of one contender. */
class Tally {
  readonly latencies: number[] = [];
  ms = 0;

  report(name: string): Rates {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    const rate = (sorted.length / this.ms) * 1000;
    console.log(
      `${name.padEnd(30)} ${rate.toFixed(0).padStart(6)} msg/s   p50 ${p(0.5).toFixed(1)} ms   p99 ${p(0.99).toFixed(1)} ms`,
    );
    return { rate, p99: p(0.99) };
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

/**
 * A bot of one start block that counts the characters it was sent. `known`: a message of one
 * of the 50 clients; `firstContact`: the first message of a client never seen before (created
 * with its deal by the event), as a campaign brings them in.
 */
async function engineSender(db: Database): Promise<{ known: SendOne; firstContact: SendOne }> {
  const project = await createProject(db.prisma, { name: 'bench', plan: 'business' });
  await saveAndPublish(db.prisma, project.id, {
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
  const as = (platformId: string, i: number) =>
    handleEvent(
      deps,
      project.id,
      // Website visitors: clients of a channel run the published version, and analytics count them.
      { ref: { clientType: CLIENT_TYPES.widget, groupId: 'site', platformId, name: platformId } },
      { type: 'message', text: `message ${i}` },
    ).then(() => {});
  let newcomers = 0;
  return { known: (c, i) => as(`c${c}`, i), firstContact: (_c, i) => as(`new${newcomers++}`, i) };
}

/** The engine's two kinds of message, warmed up, then in turns with the baseline's when given. */
async function measure(
  label: string,
  engine: { known: SendOne; firstContact: SendOne },
  analyze: () => Promise<unknown>,
  baseline?: SendOne,
): Promise<{ known: Rates; baseline?: Rates }> {
  // A round of each first, not counted: all run warmed up (JIT, connections, caches, the bot compiled).
  await round(engine.known, new Tally());
  await round(engine.firstContact, new Tally());
  if (baseline) await round(baseline, new Tally());
  await analyze();
  const known = new Tally();
  const first = new Tally();
  const bare = new Tally();
  for (let r = 0; r < ROUNDS; r++) {
    await round(engine.known, known);
    await round(engine.firstContact, first);
    if (baseline) await round(baseline, bare);
  }
  const knownRate = known.report(`engine on ${label}`);
  const firstRate = first.report(`  first contact on ${label}`);
  console.log(
    `first contact / known client on ${label}: ${((firstRate.rate / knownRate.rate) * 100).toFixed(0)} % (goal ≥ 50 %)`,
  );
  return { known: knownRate, baseline: baseline ? bare.report('baseline: bare pg writes') : undefined };
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
    const engine = await engineSender(server);
    const baseline = await baselineSender(pool);
    const { known, baseline: bare } = await measure(
      'PostgreSQL',
      engine,
      () => pool.query('VACUUM ANALYZE'),
      baseline,
    );
    if (bare) {
      console.log(
        `engine / baseline on PostgreSQL: throughput ${((known.rate / bare.rate) * 100).toFixed(0)} % (goal ≥ 70 %), p99 ${(known.p99 / bare.p99).toFixed(2)}× (goal ≤ 1.5×)`,
      );
    }
    // What the worker's analytics roll-up then does with the hits the messages queued.
    const started = performance.now();
    const { counted } = await rollUpFlowHits(server.prisma);
    const ms = performance.now() - started;
    console.log(
      `analytics roll-up: ${counted} hits in ${ms.toFixed(0)} ms (${((counted / ms) * 1000).toFixed(0)} hits/s)`,
    );
    await pool.end();
    await server.close();
    await dropServerDatabase(serverUrl, url);
  }
  const embedded = await openDatabase({ mode: 'embedded', dataDir: null });
  await measure('PGlite (in memory)', await engineSender(embedded), () =>
    embedded.prisma.$executeRawUnsafe('VACUUM ANALYZE'),
  );
  await embedded.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
