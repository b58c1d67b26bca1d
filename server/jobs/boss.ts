import { PgBoss } from 'pg-boss';
import { fromPglite } from 'pg-boss/dist/adapters/index.js';
import { getDatabase } from '@/server/db';
import { logFor, outsideLogContext } from '@/server/log';

const log = logFor('jobs');

/** How often jobs of a worker that died are noticed (their heartbeat stopped) and retried. */
const SUPERVISE_SECONDS = 10;

const globalForBoss = globalThis as unknown as {
  blockbotBoss?: Promise<PgBoss>;
  blockbotBossStopHooks?: (() => Promise<void>)[];
};

/** Run by `stopBoss` before pg-boss stops: queues consumed by their own loops (jobs.ts `consume`). */
export function onBossStop(hook: () => Promise<void>): void {
  globalForBoss.blockbotBossStopHooks ??= [];
  globalForBoss.blockbotBossStopHooks.push(hook);
}

/**
 * The one pg-boss instance of this process, on the app's own database: PGlite's connection in
 * embedded mode, the PostgreSQL server otherwise. Started lazily after migrations.
 */
export function getBoss(): Promise<PgBoss> {
  // Its timers outlive the request that may start it: they log with no request's id.
  globalForBoss.blockbotBoss ??= outsideLogContext(async () => {
    const database = await getDatabase();
    const boss =
      database.mode === 'embedded' && database.pglite
        ? new PgBoss({
            db: fromPglite(database.pglite),
            schema: 'pgboss',
            superviseIntervalSeconds: SUPERVISE_SECONDS,
          })
        : new PgBoss({
            connectionString: database.url,
            schema: 'pgboss',
            max: 4,
            superviseIntervalSeconds: SUPERVISE_SECONDS,
          });
    boss.on('error', (error) => log.error(error.message));
    await boss.start();
    return boss;
  });
  return globalForBoss.blockbotBoss;
}

export async function stopBoss(): Promise<void> {
  const pending = globalForBoss.blockbotBoss;
  if (!pending) return;
  globalForBoss.blockbotBoss = undefined;
  const hooks = globalForBoss.blockbotBossStopHooks ?? [];
  globalForBoss.blockbotBossStopHooks = [];
  await Promise.all(hooks.map((stop) => stop().catch((error: Error) => log.error(error.message))));
  const boss = await pending;
  await boss.stop({ graceful: true, timeout: 10_000 });
}
