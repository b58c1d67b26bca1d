import { randomUUID } from 'node:crypto';
import { type MigrationFile, readMigrations } from './migration-files';

/** What the migrator needs of a connection: one session, so the advisory lock holds. */
export interface SqlSession {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs a script of several statements. */
  exec(sql: string): Promise<void>;
}

// Any fixed number; instances starting together wait for each other on it.
const MIGRATION_LOCK = 7_205_318_441;

// Prisma's own table, so `prisma migrate deploy` and this migrator agree on what is applied.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export class MigrationError extends Error {}

/** Applies the migrations not yet applied, each in its own transaction, under an advisory lock. */
export async function applyMigrations(
  session: SqlSession,
  migrations: MigrationFile[] = readMigrations(),
): Promise<string[]> {
  await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await session.exec(CREATE_MIGRATIONS_TABLE);
    const { rows } = await session.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
    }>('SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL');
    const applied = new Map(rows.map((r) => [r.migration_name, r]));
    const done: string[] = [];
    for (const migration of migrations) {
      const previous = applied.get(migration.name);
      if (previous?.finished_at) {
        if (previous.checksum !== migration.checksum) {
          throw new MigrationError(
            `The migration ${migration.name} was changed after it was applied to this database. Restore the file from version control; put new changes in a new migration (npm run db:migration -- <name>).`,
          );
        }
        continue;
      }
      if (previous) {
        throw new MigrationError(
          `The migration ${migration.name} started earlier but did not finish. Fix the database by hand, then mark it rolled back.`,
        );
      }
      await applyOne(session, migration);
      done.push(migration.name);
    }
    return done;
  } finally {
    await session.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}

async function applyOne(session: SqlSession, migration: MigrationFile) {
  await session.exec('BEGIN');
  try {
    await session.exec(migration.sql);
    await session.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), now(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await session.exec('COMMIT');
  } catch (error) {
    await session.exec('ROLLBACK');
    throw new MigrationError(`The migration ${migration.name} failed: ${(error as Error).message}`);
  }
}
