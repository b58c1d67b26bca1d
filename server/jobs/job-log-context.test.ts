import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { logFor, withLogContext } from '@/server/log';
import { type CapturedLog, captureLog } from '@/server/testing/captured-log';
import { waitFor } from '@/server/testing/wait-for';
import { defineJob, enqueue, enqueueMany, startWorkers } from './jobs';

/** A job logs with the id of the request that queued it (server/log), and its handler never sees that id. */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-job-log-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let captured: CapturedLog;
const seen: { data: object; id: string }[] = [];
const log = logFor('test-job');

const logged = defineJob<{ n: number }>({
  name: 'test.logged',
  async handle(data, job) {
    seen.push({ data, id: job.id });
    log.info({ n: data.n }, 'ran');
  },
});

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  captured = captureLog();
  await startWorkers([logged as never]);
});
afterAll(async () => {
  captured?.restore();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

it("runs a job, queued one by one or in bulk, with its request's id and its own", async () => {
  await withLogContext({ requestId: 'req-one' }, () => enqueue(logged, { n: 1 }));
  await withLogContext({ requestId: 'req-many' }, () => enqueueMany(logged, [{ data: { n: 2 } }]));
  await enqueue(logged, { n: 3 });
  const lines = await waitFor(async () => {
    const ran = captured.lines().filter((l) => l.msg === 'ran');
    return ran.length === 3 ? ran : null;
  }, 'the three jobs');
  const byN = new Map(lines.map((l) => [l.n, l]));
  const idOf = (n: number) => seen.find((s) => (s.data as { n: number }).n === n)?.id;
  expect(byN.get(1)).toMatchObject({ area: 'test-job', requestId: 'req-one', jobId: idOf(1) });
  expect(byN.get(2)).toMatchObject({ requestId: 'req-many', jobId: idOf(2) });
  expect(byN.get(3)).toMatchObject({ jobId: idOf(3) });
  expect(byN.get(3)).not.toHaveProperty('requestId');
  expect(seen.map((s) => s.data).sort((a, b) => (a as { n: number }).n - (b as { n: number }).n)).toEqual([
    { n: 1 },
    { n: 2 },
    { n: 3 },
  ]);
});
