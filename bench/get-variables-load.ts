/**
 * What bench/isolation.bench.ts and bench/ai-hang.ts share: timing another project's
 * get_variables over real HTTP, and running a measure on the app's own database (PGlite, or a
 * fresh PostgreSQL database when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resetEnvCache } from '../server/config/env';
import type { PrismaClient } from '../server/db/client-type';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import { createApiKey } from '../server/projects/api-keys';
import { createProject } from '../server/projects/project-service';

export interface Figures {
  calls: number;
  p50: number;
  p99: number;
  errors: number;
}

/** `callers` loops calling `url` one after another for `seconds`. */
export async function timeGetVariables(url: string, callers: number, seconds: number): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        const response = await fetch(url).catch(() => null);
        if (!response?.ok) errors++;
        await response?.arrayBuffer();
        latencies.push(performance.now() - start);
      }
    }),
  );
  const sorted = latencies.sort((a, b) => a - b);
  const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { calls: sorted.length, p50: p(0.5), p99: p(0.99), errors };
}

export const figuresRow = (label: string, name: string, f: Figures) =>
  console.log(
    `${`${label}: ${name}`.padEnd(58)} ${String(f.calls).padStart(6)} calls   p50 ${f.p50.toFixed(1).padStart(7)} ms   p99 ${f.p99.toFixed(1).padStart(7)} ms   errors ${f.errors}`,
  );

/** Project B: a quiet project with one client; its get_variables address on `apiUrl`. */
export async function quietProject(db: PrismaClient, apiUrl: string) {
  const quiet = await createProject(db, { name: 'B: quiet', plan: 'business' });
  const key = (await createApiKey(db, quiet.id, { name: 'bench' })).key;
  const client = await db.client.create({
    data: { projectId: quiet.id, platformId: 'b', clientType: 99, groupId: 'sim' },
  });
  return {
    project: quiet,
    client,
    getVariables: `${apiUrl}/api/${key}/get_variables?client_id=${client.id}`,
  };
}

/** Runs `measure` with the app's database and settings as route handlers read them. */
export async function onAppDatabase(measure: (label: string) => Promise<void>): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-bench-'));
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  let url: string | undefined;
  if (serverUrl) {
    try {
      url = await createServerDatabase(serverUrl);
    } catch (error) {
      console.log(`PostgreSQL at ${serverUrl} is not reachable (${(error as Error).message}); skipped.`);
    }
  }
  Object.assign(process.env, {
    BLOCKBOT_HTTP_ALLOW_HOSTS: '127.0.0.1',
    BLOCKBOT_API_RATE_LIMIT: '100000000',
    ...(url
      ? {
          DATABASE_URL: url,
          BLOCKBOT_AUTH_SECRET: 'bench-secret-'.padEnd(40, 'x'),
          BLOCKBOT_ENCRYPTION_KEY: 'ab'.repeat(32),
        }
      : { BLOCKBOT_DATA_DIR: path.join(tmp, 'data') }),
  });
  // A bench run before this one may have read the environment without these.
  resetEnvCache();
  const { closeDb } = await import('../server/db');
  try {
    await measure(url ? 'PostgreSQL' : 'PGlite');
  } finally {
    await closeDb();
    if (url && serverUrl) await dropServerDatabase(serverUrl, url).catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
