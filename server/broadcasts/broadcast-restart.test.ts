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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const progress = async (env: Record<string, string>) =>
  JSON.parse((await runTsx(fixture, ['count'], env)).stdout) as {
    broadcast: { total: number; sent: number; failed: number; status: string };
    copies: number[];
  };

it(`a ${RECIPIENTS}-recipient broadcast survives a killed worker: everyone gets it exactly once`, async () => {
  processEnv = await createProcessEnv(tmp);
  const env = processEnv.env;
  const setup = await runTsx(fixture, ['setup', String(RECIPIENTS)], env);
  expect(setup.code).toBe(0);

  // The first worker is killed in the middle of the broadcast.
  const first = spawn(path.resolve('node_modules/.bin/tsx'), [fixture, 'work'], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
    detached: true,
  });
  await sleep(6000);
  process.kill(-first.pid!, 'SIGKILL');
  await sleep(500);
  const middle = await progress(env);
  expect(middle.broadcast.sent).toBeLessThan(RECIPIENTS);

  for (let round = 0; round < 6; round++) {
    const worker = spawn(path.resolve('node_modules/.bin/tsx'), [fixture, 'work'], {
      env: { ...process.env, ...env },
      stdio: 'ignore',
      detached: true,
    });
    await sleep(15_000);
    process.kill(-worker.pid!, 'SIGTERM');
    await sleep(3000);
    if ((await progress(env)).broadcast.status === 'done') break;
  }
  const final = await progress(env);
  expect(final.broadcast).toMatchObject({ total: RECIPIENTS, sent: RECIPIENTS, failed: 0, status: 'done' });
  expect(final.copies).toHaveLength(RECIPIENTS);
  expect(final.copies.every((n) => n === 1)).toBe(true);
}, 300_000);
