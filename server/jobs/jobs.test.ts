import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createProcessEnv } from '@/server/db/test-support';
import { runTsx } from '@/server/testing/run-tsx';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-jobs-'));
let processEnv: Awaited<ReturnType<typeof createProcessEnv>> | undefined;
afterAll(async () => {
  await processEnv?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const fixture = path.join(import.meta.dirname, 'fixtures', 'delayed-job.ts');

it('a delayed job survives a restart: queued by one process, run exactly once by the next', async () => {
  processEnv = await createProcessEnv(tmp);
  const { env } = processEnv;
  const marker = path.join(tmp, 'ran.txt');
  const started = Date.now();
  expect((await runTsx(fixture, ['enqueue', marker, 'job-1'], env)).code).toBe(0);
  expect(fs.existsSync(marker)).toBe(false);
  expect((await runTsx(fixture, ['work', marker], env)).code).toBe(0);
  expect(fs.readFileSync(marker, 'utf8')).toBe('job-1\n');
  // It waited for its delay.
  expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
}, 90_000);
