/**
 * `npm run bench -- webhooks`: webhook deliveries from ONE worker process (this one) on
 * PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL, default the local server), to receivers
 * in a process of their own on 127.0.0.1. Two parts:
 *
 * 1. Throughput: BENCH_WEBHOOKS deliveries (default 4,000: a 2,000-recipient broadcast's
 *    messages in and out) of one project's 50 clients, queued as the engine queues them (an
 *    outbox row and a `webhook.deliver` job each), delivered by the worker to a receiver that
 *    answers at once. Beside a baseline in the same run: the same number of signed POSTs
 *    (Standard Webhooks headers, the same bodies' size) sent by a bare loop of the same HTTP
 *    client (`safeFetch`), 64 at a time. Rounds alternate (BENCH_ROUNDS, default 2).
 * 2. Isolation: another project's deliveries, queued one every 50 ms, timed from queueing to
 *    arrival, alone and then beside a project whose receiver never answers (its jobs queued
 *    first, BENCH_WEBHOOK_TIMEOUT_MS each, default 5 s).
 *
 * Prints figures with the machine's load (uptime); never fails on time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';

const serverUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgresql://postgres@127.0.0.1:5432/test';
const DELIVERIES = Number(process.env.BENCH_WEBHOOKS ?? 4000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CLIENTS = 50;
const LATENCY_DELIVERIES = 40;

/** The receivers: `/fast` answers at once, `/hang` never; `/arrivals` lists webhook-ids and times. */
const RECEIVER = `
const http = require('node:http');
let count = 0;
const arrivals = {};
const server = http.createServer((req, res) => {
  if (req.url === '/count') return res.end(String(count));
  if (req.url === '/arrivals') return res.end(JSON.stringify(arrivals));
  if (req.url === '/hang') { req.resume(); return; }
  req.resume();
  req.on('end', () => {
    count++;
    arrivals[req.headers['webhook-id']] = Date.now();
    res.end('ok');
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
`;

async function startReceiver(): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(Number(m))));
  return { child, base: `http://127.0.0.1:${port}` };
}

async function get(url: string): Promise<string> {
  return (await fetch(url)).text();
}

function load() {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

function percentile(values: number[], q: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export async function run() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-bench-webhooks-'));
  process.env.TEST_DATABASE_URL = serverUrl;
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  process.env.BLOCKBOT_WEBHOOK_TIMEOUT_MS = process.env.BENCH_WEBHOOK_TIMEOUT_MS ?? '5000';
  // Imported after the environment is set: the app reads it once.
  const { useFreshAppDatabase: freshAppDatabase } = await import('../server/db/test-support');
  const app = await freshAppDatabase(tmp);
  const { getDb } = await import('../server/db');
  const { safeFetch } = await import('../server/http');
  const { startWorkers } = await import('../server/jobs/jobs');
  const { createProject } = await import('../server/projects/project-service');
  const { queueWebhookDeliveries, webhookDeliveryJob, webhookGaveUpJob } = await import(
    '../server/webhooks/webhook-jobs'
  );
  const db = await getDb();
  const receiver = await startReceiver();
  const count = async () => Number(await get(`${receiver.base}/count`));
  console.log(`load average at start: ${load()} (${os.cpus().length} cores)`);

  /** A project with a webhook, its clients, and `n` stored messages round-robin over them. */
  async function project(url: string, clients = CLIENTS) {
    const p = await createProject(db, { name: 'bench', plan: 'business' });
    await db.project.update({ where: { id: p.id }, data: { webhookUrl: url } });
    await db.client.createMany({
      data: Array.from({ length: clients }, (_, i) => ({
        projectId: p.id,
        platformId: `c${i}`,
        clientType: 99,
      })),
    });
    const rows = await db.client.findMany({
      where: { projectId: p.id },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    return { id: p.id, clients: rows.map((r) => r.id) };
  }

  /** Stores `n` messages and queues their deliveries as the engine does (outbox row, then job). */
  async function queueMessages(p: { id: number; clients: number[] }, n: number) {
    const data = Array.from({ length: n }, (_, i) => ({
      projectId: p.id,
      clientId: p.clients[i % p.clients.length],
      direction: (i % 2 ? 'out' : 'in') as 'in' | 'out',
      text: `message ${i} of a broadcast`,
    }));
    const messages = await db.message.createManyAndReturn({ data, select: { id: true } });
    const outbox = await db.outbox.createManyAndReturn({
      data: messages.map((m, i) => ({
        projectId: p.id,
        clientId: data[i].clientId,
        kind: 'webhook',
        messageId: m.id,
        state: 'queued',
      })),
      select: { id: true, messageId: true },
    });
    await queueWebhookDeliveries(
      p.id,
      outbox.map((o) => ({ target: { messageId: o.messageId as bigint }, outboxId: o.id })),
    );
    return messages.map((m) => `msg_${p.id}_${m.id}`);
  }

  async function waitForCount(target: number, timeoutMs: number) {
    const started = performance.now();
    while ((await count()) < target) {
      if (performance.now() - started > timeoutMs) return false;
      await sleep(20);
    }
    return true;
  }

  // Warm-up: the worker starts, compiles its paths and opens its connections.
  await startWorkers([webhookDeliveryJob, webhookGaveUpJob]);
  const fastProject = await project(`${receiver.base}/fast`);
  await queueMessages(fastProject, 200);
  await waitForCount(200, 120_000);

  const secret = (await db.project.findUniqueOrThrow({ where: { id: fastProject.id } })).webhookSecret;
  const sampleBody = JSON.stringify({
    id: 1,
    client: {
      id: 1,
      recepient: 'c1',
      client_type: 99,
      name: '',
      avatar: '',
      created_at: 0,
      tag: '',
      group: '',
    },
    message: 'message 1 of a broadcast',
    attachments: [],
    message_id: null,
    project_id: fastProject.id,
    is_input: 0,
    delivered: 1,
    error_message: null,
  });

  /** The baseline: signed POSTs of the same HTTP client, 64 at a time, nothing stored. */
  async function baseline(n: number) {
    const hook = new Webhook(secret);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next < n) {
          const i = next++;
          const at = new Date();
          await safeFetch(`${receiver.base}/fast`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'webhook-id': `bench_${i}`,
              'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
              'webhook-signature': hook.sign(`bench_${i}`, at, sampleBody),
            },
            body: sampleBody,
            timeoutMs: 5000,
            maxBytes: 64 * 1024,
            followRedirects: 0,
          });
        }
      }),
    );
    return (n / (performance.now() - started)) * 1000;
  }

  /** Ours: from the jobs queued to the last arrival, and to the last outbox row done. */
  async function ours(n: number) {
    const before = await count();
    const ids = await queueMessages(fastProject, n);
    const started = performance.now();
    const ok = await waitForCount(before + n, 600_000);
    const arrived = performance.now() - started;
    while (
      (await db.outbox.count({ where: { projectId: fastProject.id, state: { not: 'done' } } })) > 0 &&
      performance.now() - started < 600_000
    )
      await sleep(20);
    const recorded = performance.now() - started;
    if (!ok) console.log(`  (stopped waiting: ${(await count()) - before} of ${n} arrived)`);
    return { rate: (n / arrived) * 1000, recordedRate: (n / recorded) * 1000, ids };
  }

  console.log(
    `\nthroughput: ${DELIVERIES} deliveries of one project's ${CLIENTS} clients, one worker process`,
  );
  const ourRates: number[] = [];
  const baseRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const base = await baseline(DELIVERIES);
    baseRates.push(base);
    const result = await ours(DELIVERIES);
    ourRates.push(result.rate);
    console.log(
      `  round ${round + 1}: bare safeFetch loop ${base.toFixed(0)}/s   webhook jobs ${result.rate.toFixed(0)}/s arrived, ${result.recordedRate.toFixed(0)}/s recorded   (${((result.rate / base) * 100).toFixed(0)}% of the baseline; load ${load()})`,
    );
  }
  const best = Math.max(...ourRates);
  console.log(
    `  best: webhook jobs ${best.toFixed(0)}/s, bare loop ${Math.max(...baseRates).toFixed(0)}/s (${((best / Math.max(...baseRates)) * 100).toFixed(0)}%)`,
  );
  const deliveries = await db.webhookDelivery.count({ where: { projectId: fastProject.id } });
  const repeats = await db.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(*) AS n FROM (SELECT "messageId" FROM "WebhookDelivery" WHERE "projectId" = $1 GROUP BY "messageId" HAVING count(*) > 1) d`,
    fastProject.id,
  );
  console.log(`  recorded deliveries: ${deliveries}, delivered twice: ${repeats[0].n}`);

  /** Another project's deliveries, queued one at a time: queueing to arrival. */
  async function latencies(label: string) {
    const other = await project(`${receiver.base}/fast`, 5);
    const queued = new Map<string, number>();
    for (let i = 0; i < LATENCY_DELIVERIES; i++) {
      const [id] = await queueMessages(other, 1);
      queued.set(id, Date.now());
      await sleep(50);
    }
    const deadline = Date.now() + 60_000;
    let arrivals: Record<string, number> = {};
    while (Date.now() < deadline) {
      arrivals = JSON.parse(await get(`${receiver.base}/arrivals`));
      if ([...queued.keys()].every((id) => arrivals[id])) break;
      await sleep(20);
    }
    const times = [...queued].flatMap(([id, at]) => (arrivals[id] ? [arrivals[id] - at] : []));
    console.log(
      `  ${label.padEnd(44)} p50 ${percentile(times, 0.5)} ms   p99 ${percentile(times, 0.99)} ms   (${times.length} of ${LATENCY_DELIVERIES} arrived)`,
    );
  }

  console.log('\nisolation: another project, a delivery queued every 50 ms, queueing to arrival');
  await latencies('alone');
  const hanging = await project(`${receiver.base}/hang`, 5);
  await queueMessages(hanging, 200);
  await sleep(500);
  await latencies(`beside a receiver that never answers`);
  console.log(`load average at end: ${load()}`);

  receiver.child.kill();
  await app.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
}
