import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { logFor } from '@/server/log';
import type { PrismaClient } from './generated/client';
import { applyMigrations, MigrationError, type SqlSession } from './migrate';
import { pipelinedPool } from './pipelined-client';
import { createPrismaClient, preparedStatementName, shareConnections } from './raw-sql';
import { SharedConnections } from './shared-connections';

const log = logFor('db');

export type DatabaseConfig =
  | {
      mode: 'embedded';
      dataDir: string | null;
      /** A dump of a migrated database (`PGlite.dumpDataDir`) to start a new one from (tests). */
      template?: Blob;
    }
  | { mode: 'server'; url: string };

export interface Database {
  mode: 'embedded' | 'server';
  prisma: PrismaClient;
  /** Server mode: the connection string (pg-boss opens its own pool with it). */
  url?: string;
  /** Embedded mode: the one PGlite instance (pg-boss shares it). */
  pglite?: PGlite;
  close(): Promise<void>;
}

/** A problem that must stop the start with one clear line. */
export class StartupError extends Error {}

/** Opens the database and applies pending migrations. `dataDir: null` is an in-memory database. */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  return config.mode === 'embedded' ? openEmbedded(config.dataDir, config.template) : openServer(config.url);
}

/**
 * PostgreSQL's default 128 MB of shared buffers are, in PGlite, WebAssembly memory that the
 * process holds for good once started (about 100 MiB more at rest, measured with `npm run bench
 * -- start`). 32 MB hold a small team's working set; the files stay in the OS's cache anyway.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

async function openEmbedded(dataDir: string | null, template?: Blob): Promise<Database> {
  const releaseLock = dataDir ? lockDataDir(dataDir) : () => {};
  let pglite: PGlite;
  try {
    const fresh = dataDir && !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
    if (fresh && !template) await createDataDir(dataDir);
    pglite = await PGlite.create({
      dataDir: dataDir ?? undefined,
      startParams: PGLITE_START_PARAMS,
      ...(template && (fresh || !dataDir) ? { loadDataDir: template } : {}),
    });
    await migrate({
      query: (sql, params) => pglite.query(sql, params),
      exec: async (sql) => void (await pglite.exec(sql)),
    });
  } catch (error) {
    releaseLock();
    throw error;
  }
  const prisma = createPrismaClient(new PrismaPGlite(pglite));
  return {
    mode: 'embedded',
    prisma,
    pglite,
    async close() {
      await prisma.$disconnect();
      await pglite.close();
      releaseLock();
    },
  };
}

/**
 * PGlite's initdb, in a short-lived process: run in the server, it left about 600 MiB of
 * WebAssembly memory there until a full collection (and about 100 MiB of freed native memory
 * the process kept). Resolved from the working directory, as the migrations are.
 */
async function createDataDir(dataDir: string): Promise<void> {
  const script = `try {
      const { PGlite } = await import('@electric-sql/pglite');
      await (await PGlite.create(process.argv[1], { startParams: JSON.parse(process.argv[2]) })).close();
    } catch (error) {
      console.error(error.message);
      process.exit(1);
    }`;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', script, dataDir, JSON.stringify(PGLITE_START_PARAMS)],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) {
    throw new StartupError(
      `could not create the embedded database in ${dataDir}: ${stderr.trim() || `exit ${code}`}`,
    );
  }
}

async function openServer(url: string): Promise<Database> {
  // Behind a transaction-pooling PgBouncer (`?pgbouncer=true`, as Prisma spells it) a statement
  // prepared on one server connection is missing on the next: prepare none there, and share no
  // connection between statements (PgBouncer does its own sharing).
  const pooled = new URL(url).searchParams.get('pgbouncer') === 'true';
  // Statements issued together leave together: a transaction costs two round trips, not four,
  // and the hot paths' short statements share a few connections.
  const config = { connectionString: url, max: 10, connectionTimeoutMillis: 10_000 };
  const pool = pipelinedPool(config);
  pool.on('error', (error) => log.error(`idle connection error: ${error.message}`));
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new StartupError(describeUnreachable(url, error));
  }
  try {
    await migrate({
      query: async (sql, params) => ({ rows: (await client.query(sql, params)).rows }),
      exec: async (sql) => void (await client.query(sql)),
    });
  } finally {
    client.release();
  }
  const prisma = createPrismaClient(
    new PrismaPg(pool, { statementNameGenerator: pooled ? undefined : preparedStatementName }),
  );
  const shared = pooled ? undefined : new SharedConnections(config);
  if (shared) shareConnections(prisma, shared);
  return {
    mode: 'server',
    prisma,
    url,
    async close() {
      await prisma.$disconnect();
      await shared?.end();
      await pool.end();
    },
  };
}

async function migrate(session: SqlSession) {
  try {
    await applyMigrations(session);
  } catch (error) {
    if (error instanceof MigrationError) throw new StartupError(error.message);
    throw error;
  }
}

/** `postgres://user@host:5432/db (connection refused)`: never the password. */
export function describeUnreachable(url: string, error: unknown): string {
  let where = 'the configured address';
  try {
    const u = new URL(url);
    where = `${u.protocol}//${u.username ? `${u.username}@` : ''}${u.host}${u.pathname}`;
  } catch {
    return 'DATABASE_URL is not a valid URL; it looks like postgresql://user:password@host:5432/database.';
  }
  const e = error as { code?: string; message?: string };
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host not found',
    ETIMEDOUT: 'timed out',
    '28P01': 'password authentication failed',
    '28000': 'access refused',
    '3D000': 'the database does not exist',
  };
  const reason = (e.code && reasons[e.code]) || (e.message ?? 'unknown error').split('\n')[0];
  return `cannot reach the database at ${where} (${reason}). Check DATABASE_URL.`;
}

/** PGlite's data directory has no lock of its own; two processes opening it would corrupt it. */
function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'blockbot.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(fs.readFileSync(lockFile, 'utf8'));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new StartupError(
          `the embedded database in ${dataDir} is open in another process (pid ${pid}), probably a running Blockbot server. Stop it first, or use server mode (DATABASE_URL).`,
        );
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new StartupError(`could not lock the embedded database in ${dataDir}.`);
}

/** The pid of another live process that holds the embedded database in `dataDir` open, or null. */
export function lockHolder(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(dataDir, 'blockbot.pid'), 'utf8'));
  } catch {
    return null;
  }
  return pid && pid !== process.pid && isAlive(pid) ? pid : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process nobody has reaped yet (containers often run without an init that reaps)
  // still answers kill(0), as a zombie: it holds nothing.
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}
