/**
 * `npm run bench -- broadcast`: a broadcast to BENCH_RECIPIENTS simulator clients (default
 * 100,000) of one project. Beside each other in one run:
 *  - baseline, the former createBroadcast: every recipient loaded into JavaScript and one job
 *    per recipient inserted up front (into a queue no worker reads), its time and heap growth;
 *  - now: the recipients recorded by one INSERT ... SELECT and the dispatcher's first batches
 *    queued (server/broadcasts), its time and heap growth;
 *  - then the job workers send for BENCH_SEND_SECONDS (default 60) through the simulator
 *    channel: the send rate and the worker's memory every 10 s (flat: the dispatcher keeps at
 *    most 2,000 sends queued, whatever the broadcast's size); the rest is cancelled.
 * PGlite by default, PostgreSQL with TEST_DATABASE_URL. Prints figures; never fails on time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import {
  broadcastDispatchJob,
  broadcastSendJob,
  changeBroadcast,
  startBroadcast,
} from '../server/broadcasts/broadcast-jobs';
import { getDb } from '../server/db';
import type { PrismaClient } from '../server/db/client-type';
import { useFreshAppDatabase as freshAppDatabase } from '../server/db/test-support';
import { getBoss } from '../server/jobs/boss';
import { defineJob, enqueueMany, startWorkers } from '../server/jobs/jobs';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const SEND_SECONDS = Number(process.env.BENCH_SEND_SECONDS ?? 60);
const BATCH = 5_000;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
// A full collection before each reading, so the heap figures show what is kept, not garbage.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

/** A queue nobody works: the baseline's jobs are only inserted. */
const baselineJob = defineJob<{ projectId: number; broadcastId: number; clientId: number }>({
  name: 'bench.broadcast-baseline',
  async handle() {},
});

export async function run() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-bench-broadcast-'));
  const app = await freshAppDatabase(tmp);
  try {
    const db = (await getDb()) as PrismaClient;
    const projectId = (await db.project.create({ data: { name: 'bench', webhookSecret: 'whsec_bench' } })).id;
    const seedStart = performance.now();
    for (let from = 0; from < RECIPIENTS; from += BATCH)
      await db.client.createMany({
        data: Array.from({ length: Math.min(BATCH, RECIPIENTS - from) }, (_, j) => ({
          projectId,
          clientType: 99,
          groupId: 'sim',
          platformId: `b${from + j}`,
          name: `Client ${from + j}`,
        })),
      });
    console.log(`seeded ${RECIPIENTS.toLocaleString()} clients in ${seconds(performance.now() - seedStart)}`);

    // Baseline: the former way, everything in memory and one job per recipient at once.
    let h0 = heap();
    let t = performance.now();
    const recipients = await db.client.findMany({
      where: { projectId },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    const now = Date.now();
    const sends = recipients.map((r, i) => ({
      data: { projectId, broadcastId: 0, clientId: r.id },
      startAfter: new Date(now + i * 200),
      singletonKey: `baseline-${r.id}`,
    }));
    const baselineHeap = heap() - h0;
    await enqueueMany(baselineJob, sends);
    console.log(
      `baseline (all in memory, ${RECIPIENTS.toLocaleString()} jobs up front): ${seconds(performance.now() - t)}, heap +${mb(baselineHeap)}`,
    );
    sends.length = 0;
    // Its jobs go, so the queue's size does not weigh on what follows.
    await (await getBoss()).deleteQueue(baselineJob.name);

    // Now: one INSERT ... SELECT, the dispatcher's first batches.
    h0 = heap();
    t = performance.now();
    const b = await startBroadcast(db, projectId, {
      text: 'Sale today, #{name}!',
      attachments: [],
      buttons: null,
      shiftSeconds: 0,
      source: 'app',
    });
    const enqueueMs = performance.now() - t;
    const queued = await db.broadcast.findUniqueOrThrow({ where: { id: b.id } });
    console.log(
      `now (INSERT ... SELECT + dispatcher): ${seconds(enqueueMs)} for ${b.total.toLocaleString()} recipients, ${queued.cursor ? 'first sends queued' : ''}, heap +${mb(Math.max(0, heap() - h0))}`,
    );

    // Sending: the workers of this process, the simulator channel.
    await startWorkers([broadcastSendJob, broadcastDispatchJob] as never);
    const start = performance.now();
    let last = { done: 0, at: start };
    // A sample every 10 s of wall time (a busy database can stretch a read; each says its own time).
    while (performance.now() - start < SEND_SECONDS * 1000) {
      await new Promise((r) => setTimeout(r, 10_000));
      const row = await db.broadcast.findUniqueOrThrow({ where: { id: b.id } });
      const done = row.sent + row.failed;
      const at = performance.now();
      const kept = heap();
      const m = process.memoryUsage();
      console.log(
        `  ${((at - start) / 1000).toFixed(0).padStart(4)} s: ${done.toLocaleString().padStart(7)} sent (${((done - last.done) / ((at - last.at) / 1000)).toFixed(0)}/s), heap ${mb(kept)} after a collection, rss ${mb(m.rss)}`,
      );
      last = { done, at };
      if (row.status === 'done') break;
    }
    const end = await db.broadcast.findUniqueOrThrow({ where: { id: b.id } });
    const elapsed = (performance.now() - start) / 1000;
    console.log(
      `send rate: ${((end.sent + end.failed) / elapsed).toFixed(0)} a second over ${elapsed.toFixed(0)} s (${end.failed} failed); at that rate ${RECIPIENTS.toLocaleString()} take ${(RECIPIENTS / ((end.sent + end.failed) / elapsed) / 60).toFixed(0)} min`,
    );
    if (end.status === 'running') await changeBroadcast(db, projectId, b.id, 'cancel');
  } finally {
    await app.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
