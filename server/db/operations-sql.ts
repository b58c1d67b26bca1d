import { z } from 'zod';
import { column, DB_NOW } from './columns';
import { PreparedStatement } from './raw-sql';

/**
 * What an operator's probes read (docs/operations.md): the backlog gauges of `/api/metrics`
 * (server/metrics/backlog.ts), the database's, the same whichever process is scraped; and the
 * migrations `/api/ready` checks (server/health/readiness.ts).
 */

/** The migrations applied to this database (the migrator's table, Prisma's own). */
export const appliedMigrations = new PreparedStatement(
  `SELECT migration_name AS name FROM "_prisma_migrations"
   WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  z.object({ name: column.text }),
);

/** Each pg-boss queue's jobs that are due and not yet taken, and how long the oldest has waited. */
export const jobBacklog = new PreparedStatement(
  `SELECT q.name AS queue, count(j.id)::int AS jobs,
     coalesce(floor(extract(epoch FROM now() - min(j.start_after))), 0)::int AS "oldestSeconds"
   FROM pgboss.queue q
   LEFT JOIN pgboss.job j ON j.name = q.name AND j.state IN ('created', 'retry') AND j.start_after <= now()
   GROUP BY q.name`,
  z.object({ queue: column.text, jobs: column.int, oldestSeconds: column.int }),
);

/** The outbox rows still to carry out, per kind (send, webhook, follow_up), and the oldest one's age. */
export const outboxBacklog = new PreparedStatement(
  `SELECT kind, count(*)::int AS rows,
     floor(extract(epoch FROM ${DB_NOW} - min("createdAt")))::int AS "oldestSeconds"
   FROM "Outbox" WHERE state IN ('pending', 'held', 'queued')
   GROUP BY kind`,
  z.object({ kind: column.text, rows: column.int, oldestSeconds: column.int }),
);

/** Writes every changed page to disk: a backup taken next has less WAL to replay (server/backup). */
export const checkpoint = new PreparedStatement('CHECKPOINT');
