import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createProcessEnv } from '@/server/db/test-support';
import { runTsx } from '@/server/testing/run-tsx';

const TIMERS = 200;
const fixture = path.join(import.meta.dirname, 'fixtures', 'timer-worker.ts');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-timers-'));
let processEnv: Awaited<ReturnType<typeof createProcessEnv>> | undefined;
afterAll(async () => {
  await processEnv?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it(`${TIMERS} pending timers survive a killed worker: each fires exactly once`, async () => {
  processEnv = await createProcessEnv(tmp);
  const env = { ...processEnv.env, BLOCKBOT_INLINE_WORKER: 'true' };
  const setup = await runTsx(fixture, ['setup', String(TIMERS)], env);
  expect(setup.stderr).toBe('');
  expect(setup.code).toBe(0);

  // A worker starts firing them and is killed mid-way, without a chance to clean up.
  const worker = spawn(path.resolve('node_modules/.bin/tsx'), [fixture, 'work'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', fs.openSync(path.join(tmp, 'worker-stderr.log'), 'a')],
    detached: true,
  });
  await sleep(3500);
  process.kill(-worker.pid!, 'SIGKILL');
  await sleep(500);

  // New workers finish the rest; jobs the killed one held are retried once their heartbeat stops.
  // Embedded mode lets one process open the database at a time, so count between worker runs.
  for (let round = 0; round < 5; round++) {
    const worker2 = spawn(path.resolve('node_modules/.bin/tsx'), [fixture, 'work'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', fs.openSync(path.join(tmp, 'worker-stderr.log'), 'a')],
      detached: true,
    });
    await sleep(20_000);
    if (worker2.exitCode !== null) {
      throw new Error(
        `the worker exited early (${worker2.exitCode}): ${fs.readFileSync(path.join(tmp, 'worker-stderr.log'), 'utf8').slice(-2000)}`,
      );
    }
    process.kill(-worker2.pid!, 'SIGTERM');
    await sleep(3000);
    if (JSON.parse((await runTsx(fixture, ['count'], env)).stdout).counts.length === TIMERS) break;
  }
  const final = JSON.parse((await runTsx(fixture, ['count'], env)).stdout) as {
    clients: number;
    counts: number[];
  };
  expect(final.clients).toBe(TIMERS);
  expect(final.counts).toHaveLength(TIMERS);
  expect(final.counts.every((n) => n === 1)).toBe(true);
}, 240_000);
