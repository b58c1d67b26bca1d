import { getDb } from '@/server/db';
import { readMigrations } from '@/server/db/migration-files';
import { appliedMigrations } from '@/server/db/operations-sql';
import { plainSql } from '@/server/db/raw-sql';
import { getBoss } from '@/server/jobs/boss';
import { healthState } from './health-state';

export interface Check {
  ok: boolean;
  detail: string;
}

/** `/api/ready`'s body: each check, and the ones that failed named in `notReady`. */
export interface Readiness {
  ready: boolean;
  role: 'web' | 'worker' | null;
  checks: Record<string, Check>;
  notReady: string[];
}

/** A database slower than this to answer one small query is as good as away for a probe. */
const DATABASE_TIMEOUT_MS = 3000;
/** A job worker with nothing in hand that has not polled for this long (or 3 polls) is stuck. */
const STALE_WORKER_SECONDS = 30;

let expectedMigrations: string[] | undefined;

/**
 * Whether this process should get traffic: it is not shutting down, its database answers and
 * has every migration this code needs (a database restored from an older backup, or migrated
 * by a newer release, shows here), and, where it runs jobs, each of its job workers has polled
 * its queue recently or is busy with jobs.
 */
export async function checkReadiness(now: number = Date.now()): Promise<Readiness> {
  const state = healthState();
  const checks: Record<string, Check> = {
    shutdown: state.stopping
      ? { ok: false, detail: 'shutting down (SIGTERM): finishing the requests and jobs in flight' }
      : { ok: true, detail: 'running' },
    ...(await databaseChecks()),
  };
  if (state.runsJobs) checks.worker = await workerCheck(now);
  const notReady = Object.entries(checks).flatMap(([name, c]) => (c.ok ? [] : [`${name}: ${c.detail}`]));
  return { ready: notReady.length === 0, role: state.role, checks, notReady };
}

async function databaseChecks(): Promise<{ database: Check; migrations: Check }> {
  const started = Date.now();
  let applied: Set<string>;
  try {
    const rows = await withTimeout(
      (async () => plainSql(await getDb()).run(appliedMigrations, {}))(),
      DATABASE_TIMEOUT_MS,
    );
    applied = new Set(rows.map((r) => r.name));
  } catch (error) {
    const detail = `does not answer: ${(error as Error).message.split('\n')[0]}`;
    return {
      database: { ok: false, detail },
      migrations: { ok: false, detail: 'not checked: the database does not answer' },
    };
  }
  expectedMigrations ??= readMigrations().map((m) => m.name);
  const missing = expectedMigrations.filter((name) => !applied.has(name));
  return {
    database: { ok: true, detail: `answered in ${Date.now() - started} ms` },
    migrations: missing.length
      ? { ok: false, detail: `${missing.length} not applied: ${missing.slice(0, 5).join(', ')}` }
      : { ok: true, detail: `all ${expectedMigrations.length} applied` },
  };
}

async function workerCheck(now: number): Promise<Check> {
  const workers = (await getBoss()).getWipData();
  if (!workers.length) return { ok: false, detail: 'no job worker is running' };
  const stale = workers.flatMap((w) => {
    if (w.count > 0) return [];
    const polled = w.lastFetchedOn ?? w.createdOn;
    const interval = w.options.pollingIntervalSeconds ?? 2;
    const limit = Math.max(STALE_WORKER_SECONDS, 3 * interval) * 1000;
    return now - polled > limit ? [`${w.name} (${Math.round((now - polled) / 1000)} s ago)`] : [];
  });
  return stale.length
    ? { ok: false, detail: `job workers have not polled their queues: ${stale.join(', ')}` }
    : { ok: true, detail: `${workers.length} job workers polling` };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
