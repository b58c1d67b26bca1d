import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getDb } from '@/server/db';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getBoss } from './boss';
import { defineJob, enqueue, startWorkers } from './jobs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-job-claims-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
afterAll(async () => {
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const attempts: number[] = [];
let releaseRetry!: () => void;
const retryReleased = new Promise<void>((resolve) => {
  releaseRetry = resolve;
});
let markerRan!: () => void;
const markerDone = new Promise<void>((resolve) => {
  markerRan = resolve;
});

/**
 * Its first attempt holds on until its claim is taken away, then fails; its retry waits for
 * the test. A `marker` job only records that it ran.
 */
const claimed = defineJob<{ marker?: boolean }>({
  name: 'test.claimed',
  groups: { of: (data) => (data.marker ? 'marker' : 'claimed'), perGroup: 1, workers: 2 },
  async handle(data, job) {
    if (data.marker) return markerRan();
    attempts.push(job.retryCount);
    if (job.retryCount > 0) return retryReleased;
    await new Promise((resolve) => job.signal.addEventListener('abort', resolve, { once: true }));
    throw new Error('the first attempt gives up once its claim is gone');
  },
});

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  await startWorkers([claimed]);
});

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

it("a job that fails after its claim was taken away leaves its retry's outcome alone", async () => {
  const id = await enqueue(claimed, {}, { retryLimit: 1, retryDelay: 0 });
  await until(() => attempts.length === 1);
  // Taken away as a heartbeat the database stopped seeing takes it: the job is retried.
  await (await getBoss()).fail(claimed.name, id as string, { message: 'taken away by the test' });
  await until(() => attempts.length === 2);

  // Both workers are busy: the marker runs only once the first attempt has failed and settled.
  await enqueue(claimed, { marker: true });
  await markerDone;
  releaseRetry();

  const db = await getDb();
  const state = async () =>
    (
      await db.$queryRawUnsafe<{ state: string }[]>(
        `SELECT state::text FROM pgboss.job WHERE name = $1 AND id = $2::uuid`,
        claimed.name,
        id,
      )
    )[0]?.state;
  let last = await state();
  while (last === 'active') {
    await new Promise((resolve) => setTimeout(resolve, 20));
    last = await state();
  }
  expect(attempts).toEqual([0, 1]);
  expect(last).toBe('completed');
}, 60_000);
