import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createProcessEnv } from '@/server/db/test-support';
import { runTsx } from '@/server/testing/run-tsx';

const RECIPIENTS = 1000;
const fixture = path.join(import.meta.dirname, 'fixtures', 'broadcast-worker.ts');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-broadcast-'));
let processEnv: Awaited<ReturnType<typeof createProcessEnv>> | undefined;
afterAll(async () => {
  await processEnv?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const progress = async (env: Record<string, string>) =>
  JSON.parse((await runTsx(fixture, ['count'], env)).stdout) as {
    broadcast: { total: number; sent: number; failed: number; status: string };
    copies: number[];
  };

/** Runs a worker process of the fixture to its end; its exit signal, or null when it exited. */
function work(env: Record<string, string>, ...args: string[]): Promise<NodeJS.Signals | null> {
  // Node itself with tsx's loader (not the tsx wrapper), so a kill shows as this process's signal.
  const worker = spawn(process.execPath, ['--import', 'tsx', fixture, 'work', ...args], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  return new Promise((resolve) => worker.on('exit', (_code, signal) => resolve(signal)));
}

it(`a ${RECIPIENTS}-recipient broadcast survives a killed worker: everyone gets it exactly once`, async () => {
  processEnv = await createProcessEnv(tmp);
  // The killed worker dies with up to 50 recipients' events in flight (recipients run side by
  // side): their clients are free again once its leases run out, 10 s here (120 by default).
  const env = { ...processEnv.env, BLOCKBOT_CLIENT_LEASE_SECONDS: '10' };
  const setup = await runTsx(fixture, ['setup', String(RECIPIENTS)], env);
  expect(setup.code).toBe(0);

  // The first worker dies (SIGKILL: no clean shutdown) in the middle of the broadcast.
  expect(await work(env, 'die-after=300')).toBe('SIGKILL');
  const middle = await progress(env);
  expect(middle.broadcast.sent).toBeGreaterThanOrEqual(300);
  expect(middle.broadcast.sent).toBeLessThan(RECIPIENTS);

  // A new worker takes over the jobs the dead one held, and stops once the broadcast is done.
  expect(await work(env)).toBeNull();
  const final = await progress(env);
  expect(final.broadcast).toMatchObject({ total: RECIPIENTS, sent: RECIPIENTS, failed: 0, status: 'done' });
  expect(final.copies).toHaveLength(RECIPIENTS);
  expect(final.copies.every((n) => n === 1)).toBe(true);
}, 300_000);
