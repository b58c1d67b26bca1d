import type { PrismaClient } from '@/server/db/client-type';
import { jobBacklog, outboxBacklog } from '@/server/db/operations-sql';
import { plainSql } from '@/server/db/raw-sql';
import type { Metrics } from './metrics';

/** The kinds of outbox rows, reported as 0 when none waits, so an alert's series never vanishes. */
const OUTBOX_KINDS = ['send', 'webhook', 'follow_up'];

/**
 * Sets the backlog gauges from the database, as a scrape asks for them; they stay empty when it
 * does not answer (no stale figure passes for a current one). Before any process has started
 * pg-boss its schema is missing: the job gauges stay empty then.
 */
export async function refreshBacklog(db: PrismaClient, m: Metrics): Promise<void> {
  for (const gauge of [m.jobBacklog, m.jobOldestAge, m.outboxBacklog, m.outboxOldestAge]) gauge.reset();
  const sql = plainSql(db);
  const [jobs, outbox] = await Promise.all([
    sql.run(jobBacklog, {}).catch((error: Error) => {
      if (/relation "pgboss\.\w+" does not exist/.test(error.message)) return [];
      throw error;
    }),
    sql.run(outboxBacklog, {}),
  ]);
  for (const { queue, jobs: count, oldestSeconds } of jobs) {
    m.jobBacklog.set({ queue }, count);
    m.jobOldestAge.set({ queue }, oldestSeconds);
  }
  for (const kind of OUTBOX_KINDS) {
    const row = outbox.find((r) => r.kind === kind);
    m.outboxBacklog.set({ kind }, row?.rows ?? 0);
    m.outboxOldestAge.set({ kind }, row?.oldestSeconds ?? 0);
  }
}
