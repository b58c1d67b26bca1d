import path from 'node:path';
import { dataDir } from '@/server/config/data-dir';
import { getEnv } from '@/server/config/env';
import { type Database, openDatabase } from './database';

export { type Database, StartupError } from './database';

const globalForDb = globalThis as unknown as { blockbotDb?: Promise<Database> };

/**
 * The process's one database, opened lazily (never at import time: `next build` runs workers)
 * with migrations applied: PostgreSQL when DATABASE_URL is set, embedded PGlite otherwise.
 */
export function getDatabase(): Promise<Database> {
  globalForDb.blockbotDb ??= (async () => {
    const url = getEnv().DATABASE_URL;
    return url
      ? openDatabase({ mode: 'server', url })
      : openDatabase({ mode: 'embedded', dataDir: embeddedDatabaseDir() });
  })().catch((error) => {
    globalForDb.blockbotDb = undefined;
    throw error;
  });
  return globalForDb.blockbotDb;
}

/** Where the embedded database's files are: `pglite` in the data directory, beside its secrets. */
export function embeddedDatabaseDir(root: string = dataDir()): string {
  return path.join(root, 'pglite');
}

export async function getDb() {
  return (await getDatabase()).prisma;
}

export async function closeDb(): Promise<void> {
  const pending = globalForDb.blockbotDb;
  globalForDb.blockbotDb = undefined;
  if (pending) await (await pending).close();
}
