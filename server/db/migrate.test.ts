import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runTsx } from '@/server/testing/run-tsx';
import { describeUnreachable, openDatabase } from './database';
import { applyMigrations, type SqlSession } from './migrate';
import { readMigrations } from './migration-files';
import { createServerDatabase, dropServerDatabase } from './test-support';

const serverUrl = process.env.TEST_DATABASE_URL;
const toDrop: string[] = [];
afterAll(async () => {
  for (const url of toDrop) await dropServerDatabase(serverUrl!, url);
});

const pgliteSession = (db: PGlite): SqlSession => ({
  query: (sql, params) => db.query(sql, params),
  exec: async (sql) => void (await db.exec(sql)),
});

/** Runs the migrations on a fresh database of the mode under test and gives a session on it. */
async function freshSession(): Promise<{ session: SqlSession; close(): Promise<void> }> {
  if (!serverUrl) {
    const db = await PGlite.create();
    return { session: pgliteSession(db), close: () => db.close() };
  }
  const url = await createServerDatabase(serverUrl);
  toDrop.push(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    session: {
      query: async (sql, params) => ({ rows: (await client.query(sql, params)).rows }),
      exec: async (sql) => void (await client.query(sql)),
    },
    close: () => client.end(),
  };
}

describe('data migrations', () => {
  it('tg_usernames_case moves clients stored under another spelling of a connected bot to its own', async () => {
    const { session, close } = await freshSession();
    try {
      const files = readMigrations();
      const at = files.findIndex((f) => f.name.endsWith('_tg_usernames_case'));
      await applyMigrations(session, files.slice(0, at));
      await session.exec(`
        INSERT INTO "Project" (id, name, "webhookSecret", "updatedAt") VALUES (1, 'p', 's', now());
        INSERT INTO "Channel" ("projectId", kind, "clientType", "groupId") VALUES (1, 'tg', 1, 'Shop_Bot');
        INSERT INTO "Client" (id, "projectId", "clientType", "groupId", "platformId", "updatedAt") VALUES
          (1, 1, 1, 'shop_bot', '100', now()),
          (2, 1, 1, 'SHOP_BOT', '100', now()),
          (3, 1, 1, 'Shop_Bot', '200', now()),
          (4, 1, 1, 'shop_bot', '200', now()),
          (5, 1, 1, 'other_bot', '100', now()),
          (6, 1, 99, 'shop_bot', '100', now());
      `);
      await applyMigrations(session, files);
      const { rows } = await session.query<{ id: number; groupId: string }>(
        'SELECT id, "groupId" FROM "Client" ORDER BY id',
      );
      expect(rows.map((r) => [r.id, r.groupId])).toEqual([
        [1, 'Shop_Bot'],
        [2, 'SHOP_BOT'],
        [3, 'Shop_Bot'],
        [4, 'shop_bot'],
        [5, 'other_bot'],
        [6, 'shop_bot'],
      ]);
    } finally {
      await close();
    }
  });
});

describe('data migrations: bot_versions', () => {
  it("makes each project's bot as it is its version 1, published, in the schema format", async () => {
    const { session, close } = await freshSession();
    try {
      const files = readMigrations();
      const at = files.findIndex((f) => f.name.endsWith('_bot_versions'));
      await applyMigrations(session, files.slice(0, at));
      await session.exec(`
        INSERT INTO "Project" (id, name, "webhookSecret", "updatedAt", "schemaRevision") VALUES
          (1, 'p', 's', now(), 7), (2, 'empty', 's', now(), 0);
        INSERT INTO "Block" ("projectId", id, kind, name, x, y, width, height, text, trigger, buttons, "updatedAt") VALUES
          (1, 2, 'state', 'Ask', 10, 20, NULL, NULL, 'Size?', NULL, '[{"type":"reply","text":"S"}]', now()),
          (1, 1, 'start', '', 0, 0, 240, 120, 'Hi', '{"alternatives":""}', NULL, now());
        INSERT INTO "Arrow" ("projectId", id, "fromId", "toId", kind, settings) VALUES
          (1, 1, 1, 2, 'condition', '{"condition":{"alternatives":"yes"}}');
      `);
      await applyMigrations(session, files);
      const { rows } = await session.query<{ projectId: number; number: number; schema: unknown }>(
        'SELECT "projectId", number, schema, "blockCount", "arrowCount" FROM "BotVersion" ORDER BY "projectId"',
      );
      expect(rows).toEqual([
        {
          projectId: 1,
          number: 1,
          blockCount: 2,
          arrowCount: 1,
          schema: {
            format: 'blockbot/schema@1',
            blocks: [
              {
                id: 1,
                kind: 'start',
                name: '',
                position: { x: 0, y: 0 },
                size: { width: 240, height: 120 },
                trigger: { alternatives: '' },
                text: 'Hi',
                attachments: [],
                formula: '',
              },
              {
                id: 2,
                kind: 'state',
                name: 'Ask',
                position: { x: 10, y: 20 },
                text: 'Size?',
                attachments: [],
                buttons: [{ type: 'reply', text: 'S' }],
                formula: '',
              },
            ],
            arrows: [{ id: 1, from: 1, to: 2, kind: 'condition', condition: { alternatives: 'yes' } }],
          },
        },
        {
          projectId: 2,
          number: 1,
          blockCount: 0,
          arrowCount: 0,
          schema: { format: 'blockbot/schema@1', blocks: [], arrows: [] },
        },
      ]);
      const projects = await session.query(
        'SELECT "publishedVersion", "publishedRevision" FROM "Project" ORDER BY id',
      );
      expect(projects.rows).toEqual([
        { publishedVersion: 1, publishedRevision: 7 },
        { publishedVersion: 1, publishedRevision: 0 },
      ]);
    } finally {
      await close();
    }
  });
});

describe('migrations at start', () => {
  it('apply to an empty database, as Prisma records them, and are a no-op the second time', async () => {
    const { session, close } = await freshSession();
    try {
      const files = readMigrations();
      expect(files.length).toBeGreaterThan(0);
      expect(await applyMigrations(session)).toEqual(files.map((f) => f.name));
      const { rows } = await session.query<{
        migration_name: string;
        checksum: string;
        finished_at: Date;
        applied_steps_count: number;
      }>(
        'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
      );
      expect(rows.map((r) => [r.migration_name, r.checksum, r.applied_steps_count])).toEqual(
        files.map((f) => [f.name, f.checksum, 1]),
      );
      expect(rows.every((r) => r.finished_at)).toBe(true);
      expect(await applyMigrations(session)).toEqual([]);
      const tables = await session.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'Client'`,
      );
      expect(tables.rows[0].n).toBe(1);
    } finally {
      await close();
    }
  });

  it('refuses an applied migration whose file changed, with a clear error', async () => {
    const { session, close } = await freshSession();
    try {
      const files = readMigrations();
      await applyMigrations(session, files);
      const changed = files.map((f, i) => (i === 0 ? { ...f, checksum: '0'.repeat(64) } : f));
      await expect(applyMigrations(session, changed)).rejects.toThrow(
        `The migration ${files[0].name} was changed after it was applied`,
      );
    } finally {
      await close();
    }
  });

  it('rolls a failing migration back and records nothing', async () => {
    const { session, close } = await freshSession();
    try {
      const broken = [
        {
          name: '20990101000000_broken',
          sql: 'CREATE TABLE "Ok" (id int); SELECT * FROM no_such_table;',
          checksum: 'x'.repeat(64),
        },
      ];
      await expect(applyMigrations(session, broken)).rejects.toThrow(
        'The migration 20990101000000_broken failed',
      );
      const { rows } = await session.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'Ok'`,
      );
      expect(rows[0].n).toBe(0);
      const applied = await session.query('SELECT * FROM "_prisma_migrations"');
      expect(applied.rows).toEqual([]);
    } finally {
      await close();
    }
  });

  it.runIf(serverUrl)(
    'two processes starting at once against one PostgreSQL database apply each migration once',
    async () => {
      const url = await createServerDatabase(serverUrl!);
      toDrop.push(url);
      const script = path.join(import.meta.dirname, 'fixtures', 'open-database.ts');
      const run = async () => (await runTsx(script, [], { DATABASE_URL: url })).code;
      expect(await Promise.all([run(), run(), run()])).toEqual([0, 0, 0]);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query(
          'SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" GROUP BY 1 ORDER BY migration_name COLLATE "C"',
        );
        expect(rows).toEqual(readMigrations().map((f) => ({ migration_name: f.name, n: 1 })));
      } finally {
        await client.end();
      }
    },
  );

  it('an unreachable database stops the start with one clear line that hides the password', async () => {
    await expect(
      openDatabase({ mode: 'server', url: 'postgresql://bot:s3cret@127.0.0.1:1/blockbot' }),
    ).rejects.toThrow(
      'cannot reach the database at postgresql://bot@127.0.0.1:1/blockbot (connection refused). Check DATABASE_URL.',
    );
    expect(describeUnreachable('not a url', new Error('x'))).toMatch(/not a valid URL/);
    const output = await runTsx('server/worker.ts', [], {
      DATABASE_URL: 'postgresql://bot:s3cret@127.0.0.1:1/blockbot',
      BLOCKBOT_AUTH_SECRET: 'x'.repeat(32),
    });
    expect(output.code).toBe(1);
    // The log's one line (JSON when not on a terminal), at fatal.
    expect(
      output.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      expect.objectContaining({
        level: 'fatal',
        msg: 'Blockbot could not start: cannot reach the database at postgresql://bot@127.0.0.1:1/blockbot (connection refused). Check DATABASE_URL.',
      }),
    ]);
    expect(output.stdout + output.stderr).not.toContain('s3cret');
  });
});
