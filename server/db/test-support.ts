import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from './database';
import { embeddedDatabaseDir } from './index';
import { readMigrations } from './migration-files';

/** The set of migrations this code has, as a short key: a new migration makes new templates. */
const migrationsKey = () =>
  createHash('sha256')
    .update(
      readMigrations()
        .map((m) => `${m.name}:${m.checksum}`)
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 16);

/**
 * A migrated embedded database, dumped once per set of migrations and reused by every test
 * file on this machine: a new database loads it (about a second) instead of PGlite's initdb and
 * every migration (several seconds each time, most of a test file's setup). Keyed by the
 * migrations' checksums, so a new migration makes a new template.
 */
async function migratedTemplate(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `blockbot-test-template-${migrationsKey()}.tar`);
  if (!fs.existsSync(file)) {
    const database = await openDatabase({ mode: 'embedded', dataDir: null });
    const dump = await database.pglite?.dumpDataDir('none');
    await database.close();
    if (!dump) throw new Error('the embedded database gave no dump');
    // Written aside, then renamed: a test file starting meanwhile never reads half a dump.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  }
  return new Blob([fs.readFileSync(file)]);
}

/**
 * The template as a data directory on disk, made once per set of migrations: a test's data
 * directory is a copy of it (a fraction of a second), where loading the dump into a directory
 * took PGlite a start and a checkpoint (about 2 s).
 */
async function migratedDataDir(): Promise<string> {
  const dir = path.join(os.tmpdir(), `blockbot-test-datadir-${migrationsKey()}`);
  if (!fs.existsSync(dir)) {
    // Made aside, then renamed: a test file starting meanwhile never copies half a directory.
    const partial = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
    const database = await openDatabase({
      mode: 'embedded',
      dataDir: partial,
      template: await migratedTemplate(),
    });
    await database.close();
    try {
      fs.renameSync(partial, dir);
    } catch (error) {
      // Another process made it first.
      fs.rmSync(partial, { recursive: true, force: true });
      if (!fs.existsSync(dir)) throw error;
    }
  }
  return dir;
}

/**
 * A data directory (BLOCKBOT_DATA_DIR) whose embedded database, where the app opens it, is
 * migrated, from the template: without it the app's first open runs initdb and every migration.
 */
export async function seedDataDir(root: string): Promise<void> {
  const dir = embeddedDatabaseDir(root);
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return;
  fs.cpSync(await migratedDataDir(), dir, { recursive: true });
}

export interface TestDatabase extends Database {
  /** Server mode: the fresh database's URL, for child processes. */
  url?: string;
}

/**
 * A fresh, migrated database of its own for one test file: in-memory PGlite by default, or a
 * new database on the PostgreSQL server of TEST_DATABASE_URL (dropped again on close).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return createEmbeddedTestDatabase();
  const url = await createMigratedServerDatabase(serverUrl);
  const database = await openDatabase({ mode: 'server', url });
  return {
    ...database,
    async close() {
      await database.close();
      await dropServerDatabase(serverUrl, url);
    },
  };
}

/** A fresh, migrated in-memory PGlite database, whatever TEST_DATABASE_URL says (tests across modes). */
export async function createEmbeddedTestDatabase(): Promise<TestDatabase> {
  return openDatabase({ mode: 'embedded', dataDir: null, template: await migratedTemplate() });
}

/** Creates an empty database next to the one TEST_DATABASE_URL names; returns its URL. */
export async function createServerDatabase(serverUrl: string): Promise<string> {
  const name = `blockbot_t_${randomBytes(6).toString('hex')}`;
  await asAdmin(serverUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  return databaseUrl(serverUrl, name);
}

/**
 * A new migrated database next to the one TEST_DATABASE_URL names, copied from a template
 * migrated once per set of migrations (CREATE DATABASE ... TEMPLATE): a copy takes a fraction of
 * running every migration, which most test files would otherwise do first.
 */
export async function createMigratedServerDatabase(serverUrl: string): Promise<string> {
  const template = `blockbot_template_${migrationsKey()}`;
  const name = `blockbot_t_${randomBytes(6).toString('hex')}`;
  await asAdmin(serverUrl, async (admin) => {
    // One process at a time: a template is made once, and a copy needs it without connections.
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (!rowCount) {
      // Migrated under a name of its own, renamed when complete: a failed run leaves no half template.
      const partial = `${template}_partial`;
      await admin.query(`DROP DATABASE IF EXISTS ${partial} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${partial}`);
      const database = await openDatabase({ mode: 'server', url: databaseUrl(serverUrl, partial) });
      await database.close();
      await admin.query(`ALTER DATABASE ${partial} RENAME TO ${template}`);
    }
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  });
  return databaseUrl(serverUrl, name);
}

/** An arbitrary key of the advisory lock that makes template copies take turns. */
const TEMPLATE_LOCK = 7_265_011;

async function asAdmin<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropServerDatabase(serverUrl: string, url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await asAdmin(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/**
 * Environment for child processes that open "the" database as the app does: a data directory
 * in `tmp` in embedded mode, or a fresh PostgreSQL database when TEST_DATABASE_URL is set.
 */
export async function createProcessEnv(
  tmp: string,
): Promise<{ env: Record<string, string>; dispose(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dataDir = path.join(tmp, 'data');
    await seedDataDir(dataDir);
    return { env: { BLOCKBOT_DATA_DIR: dataDir }, dispose: async () => {} };
  }
  const url = await createMigratedServerDatabase(serverUrl);
  return {
    // Server mode needs its secrets from the environment, as every instance does in production.
    env: {
      DATABASE_URL: url,
      BLOCKBOT_AUTH_SECRET: 'test-secret-'.padEnd(40, 'x'),
      BLOCKBOT_ENCRYPTION_KEY: 'ab'.repeat(32),
      // Tests sign many people up; server mode's own default is invite-only (docs/operations.md).
      BLOCKBOT_SIGNUP: 'open',
    },
    dispose: () => dropServerDatabase(serverUrl, url),
  };
}

/**
 * Points this test process's app database (getDb, as route handlers use it) at a fresh one.
 * This affects one file only: the db tests' setup (`server/testing/db-file-setup.ts`) restores
 * the environment and forgets the database after each file.
 */
export async function useFreshAppDatabase(tmp: string): Promise<{ dispose(): Promise<void> }> {
  const { env, dispose } = await createProcessEnv(tmp);
  Object.assign(process.env, env);
  const { resetEnvCache } = await import('@/server/config/env');
  resetEnvCache();
  return {
    async dispose() {
      const { closeDb } = await import('./index');
      const { stopBoss } = await import('@/server/jobs/boss');
      await stopBoss();
      await closeDb();
      await dispose();
    },
  };
}
