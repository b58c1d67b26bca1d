import path from 'node:path';
import { dataDir } from '@/server/config/data-dir';
import { getEnv } from '@/server/config/env';
import type { PrismaClient } from './client-type';
import { type Database, openDatabase } from './database';

export { type Database, StartupError } from './database';

const globalForDb = globalThis as unknown as { blockbotDb?: Promise<Database>; blockbotOpenDb?: Database };

/**
 * The process's one database, opened lazily (never at import time: `next build` runs workers)
 * with migrations applied: PostgreSQL when DATABASE_URL is set, embedded PGlite otherwise.
 */
export function getDatabase(): Promise<Database> {
  if (globalForDb.blockbotDb) return globalForDb.blockbotDb;
  const opening: Promise<Database> = (async () => {
    const url = getEnv().DATABASE_URL;
    return url
      ? openDatabase({ mode: 'server', url })
      : openDatabase({ mode: 'embedded', dataDir: embeddedDatabaseDir() });
  })().then(
    (db) => {
      // Not when closeDb came first: that copy is being closed.
      if (globalForDb.blockbotDb === opening) globalForDb.blockbotOpenDb = db;
      return db;
    },
    (error) => {
      if (globalForDb.blockbotDb === opening) globalForDb.blockbotDb = undefined;
      throw error;
    },
  );
  globalForDb.blockbotDb = opening;
  return opening;
}

/** Where the embedded database's files are: `pglite` in the data directory, beside its secrets. */
export function embeddedDatabaseDir(root: string = dataDir()): string {
  return path.join(root, 'pglite');
}

export function getDb(): Promise<PrismaClient> {
  const open = globalForDb.blockbotOpenDb;
  return open ? Promise.resolve(open.prisma) : getDatabase().then((db) => db.prisma);
}

/**
 * The database's client once it is open, else undefined: a hot path takes it without a
 * promise (with AsyncLocalStorage in use, each costs a hook on Node 20) and awaits getDb only
 * before.
 */
export function openedDb(): PrismaClient | undefined {
  return globalForDb.blockbotOpenDb?.prisma;
}

export async function closeDb(): Promise<void> {
  const pending = globalForDb.blockbotDb;
  globalForDb.blockbotDb = undefined;
  globalForDb.blockbotOpenDb = undefined;
  if (pending) await (await pending).close();
}
