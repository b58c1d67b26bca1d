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

/** Runs a worker process of the fixture to its end; its exit signal, or null when it exited. */
function work(env: Record<string, string>, option: string) {
  const log = fs.openSync(path.join(tmp, 'worker-stderr.log'), 'a');
  // Node itself with tsx's loader (not the tsx wrapper), so a kill shows as this process's signal.
  const worker = spawn(process.execPath, ['--import', 'tsx', fixture, 'work', option], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', log],
  });
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    worker.on('exit', (code, signal) =>
      resolve({
        code,
        signal,
        stderr: fs.readFileSync(path.join(tmp, 'worker-stderr.log'), 'utf8').slice(-2000),
      }),
    ),
  );
}

const count = async (env: Record<string, string>) =>
  JSON.parse((await runTsx(fixture, ['count'], env)).stdout) as { clients: number; counts: number[] };

it(`${TIMERS} pending timers survive a killed worker: each fires exactly once`, async () => {
  processEnv = await createProcessEnv(tmp);
  const env = { ...processEnv.env, BLOCKBOT_INLINE_WORKER: 'true' };
  const setup = await runTsx(fixture, ['setup', String(TIMERS)], env);
  expect(setup.stderr).toBe('');
  expect(setup.code).toBe(0);

  // A worker starts firing them and dies mid-way (SIGKILL), without a chance to clean up: as it
  // delivers the 60th, so exactly 60 fired however loaded the machine is.
  expect(await work(env, 'die-after=60')).toMatchObject({ signal: 'SIGKILL' });
  const middle = await count(env);
  expect(middle.counts).toHaveLength(60);
  expect(middle.counts.every((n) => n === 1)).toBe(true);

  // A new worker finishes the rest; jobs the killed one held are retried once their heartbeat
  // stops. It shuts down cleanly when every timer has fired.
  expect(await work(env, `all=${TIMERS}`)).toMatchObject({ code: 0, signal: null });
  const final = await count(env);
  expect(final.clients).toBe(TIMERS);
  expect(final.counts).toHaveLength(TIMERS);
  expect(final.counts.every((n) => n === 1)).toBe(true);
}, 240_000);
