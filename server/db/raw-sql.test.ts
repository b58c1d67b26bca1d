import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { column } from './columns';
import { openDatabase } from './database';
import { PreparedStatement, plainSql, prefixed, preparedStatementName, sqlTransaction } from './raw-sql';
import {
  createServerDatabase,
  createTestDatabase,
  dropServerDatabase,
  type TestDatabase,
} from './test-support';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.close());

it("plain SQL runs in the same transaction as Prisma's tx, also with many transactions at once", async () => {
  const pairs = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      sqlTransaction(db.prisma, async (tx, sql) => {
        const [raw] = await sql.query('SELECT txid_current()::text AS xid');
        // Let the other transactions interleave before Prisma's side answers.
        await new Promise((resolve) => setTimeout(resolve, (i % 5) * 3));
        const [viaPrisma] = await tx.$queryRaw<{ xid: string }[]>`SELECT txid_current()::text AS xid`;
        return [raw.xid, viaPrisma.xid];
      }),
    ),
  );
  for (const [raw, viaPrisma] of pairs) expect(raw).toBe(viaPrisma);
  expect(new Set(pairs.map(([raw]) => raw)).size).toBe(20);
});

it('works from another copy of this module, as Next.js bundles one per server chunk', async () => {
  vi.resetModules();
  const copy = await import('./raw-sql');
  expect(copy.sqlTransaction).not.toBe(sqlTransaction);
  const [row] = await copy.sqlTransaction(db.prisma, (_tx, sql) => sql.query('SELECT 1 AS one'));
  expect(row.one).toBe(1);
  const [plainRow] = await copy.plainSql(db.prisma).query('SELECT 2 AS two');
  expect(plainRow.two).toBe(2);
  // A statement made by one copy is known by the name the database's copy gives it.
  const made = new copy.PreparedStatement('SELECT $n::int + 100 AS copied');
  expect(preparedStatementName({ sql: made.text })).toMatch(/^blockbot_\d+$/);
});

it('a failure rolls back what plain SQL and Prisma wrote in the transaction', async () => {
  await expect(
    sqlTransaction(db.prisma, async (tx, sql) => {
      await sql.query(
        `INSERT INTO "Project" (name, "webhookSecret", "updatedAt") VALUES ('raw', 'x', $1::timestamp(3))`,
        [new Date()],
      );
      await tx.project.create({ data: { name: 'prisma', webhookSecret: 'x' } });
      throw new Error('boom');
    }),
  ).rejects.toThrow('boom');
  expect(await db.prisma.project.count({ where: { name: { in: ['raw', 'prisma'] } } })).toBe(0);
});

it('rolls back a transaction still running after its timeout; its later statements fail', async () => {
  let later: unknown;
  await expect(
    sqlTransaction(
      db.prisma,
      async (tx, sql) => {
        await sql.query(
          `INSERT INTO "Project" (name, "webhookSecret", "updatedAt") VALUES ('slow', 'x', $1::timestamp(3))`,
          [new Date()],
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        later = await tx.project.count().catch((error: Error) => error);
        await sql.query('SELECT 1');
      },
      { timeout: 100 },
    ),
  ).rejects.toThrow('The transaction was rolled back: it ran longer than 100 ms.');
  expect(later).toBeInstanceOf(Error);
  expect(await db.prisma.project.count({ where: { name: 'slow' } })).toBe(0);
});

it('gives a tx client that is no promise, so a transaction may answer it', async () => {
  // Were it thenable, answering it from the transaction would wait on it forever.
  const tx = await sqlTransaction(db.prisma, async (tx) => tx);
  expect(typeof (tx as unknown as { then?: unknown }).then).toBe('undefined');
});

it('commits with the last statement; a failing one rolls back all, and nothing may follow', async () => {
  const insert = `INSERT INTO "Project" (name, "webhookSecret", "updatedAt") VALUES ($1, 'x', $2::timestamp(3))`;
  const ok = new PreparedStatement('SELECT $n::int AS n');
  let after: unknown;
  expect(
    await sqlTransaction(db.prisma, async (_tx, sql) => {
      await sql.query(insert, ['committed', new Date()]);
      const rows = await sql.runAndCommit(ok, { n: 1 });
      after = await sql.query('SELECT 1').catch((error: Error) => error.message);
      return rows;
    }),
  ).toEqual([{ n: 1 }]);
  expect(after).toBe('The transaction has committed: nothing may run after its last statement.');
  const failing = new PreparedStatement('SELECT 1 / $zero::int AS n');
  await expect(
    sqlTransaction(db.prisma, async (_tx, sql) => {
      await sql.query(insert, ['rolled back', new Date()]);
      return sql.runAndCommit(failing, { zero: 0 });
    }),
  ).rejects.toThrow('division by zero');
  const names = await db.prisma.project.findMany({ where: { name: { in: ['committed', 'rolled back'] } } });
  expect(names.map((p) => p.name)).toEqual(['committed']);
});

it('gives values the same way on both databases: json, bigints and timestamps as text, Dates stored as UTC', async () => {
  const at = new Date('2026-03-02T09:15:30.250Z');
  const [row] = await plainSql(db.prisma).query(
    `SELECT '{"a": [1, "b"]}'::jsonb AS json, 9007199254740993::bigint AS big, $1::timestamp(3) AS at, 7 AS int, true AS flag`,
    [at],
  );
  expect(JSON.parse(row.json as string)).toEqual({ a: [1, 'b'] });
  expect(row.big).toBe('9007199254740993');
  expect(new Date(row.at as string).toISOString()).toBe(at.toISOString());
  expect(row).toMatchObject({ int: 7, flag: true });
});

it('prepared statements take named parameters, each as often as needed, and only they get a statement name', async () => {
  const sum = new PreparedStatement('SELECT $a::int + $b::int + $a::int AS total, $label::text AS label');
  expect(sum.text).toBe('SELECT $1::int + $2::int + $1::int AS total, $3::text AS label');
  const sql = plainSql(db.prisma);
  for (let i = 0; i < 3; i++)
    expect(await sql.run(sum, { a: i, b: 10, label: 'x' })).toEqual([{ total: 10 + 2 * i, label: 'x' }]);
  expect(() => sum.values({ a: 1, label: 'x' })).toThrow('Parameter $b is missing.');

  expect(preparedStatementName({ sql: sum.text })).toMatch(/^blockbot_\d+$/);
  expect(preparedStatementName({ sql: new PreparedStatement('SELECT $x::int').text })).not.toBe(
    preparedStatementName({ sql: sum.text }),
  );
  expect(preparedStatementName({ sql: 'SELECT 1' })).toBe('');
});

const hot = new PreparedStatement('SELECT $n::int * 2 AS twice');
const preparedHere = `SELECT name FROM pg_prepared_statements WHERE name = $1`;

it('PostgreSQL keeps a prepared statement on the connection; PGlite parses it each time', async () => {
  const names = await sqlTransaction(db.prisma, async (_tx, sql) => {
    expect(await sql.run(hot, { n: 21 })).toEqual([{ twice: 42 }]);
    return sql.query(preparedHere, [preparedStatementName({ sql: hot.text })]);
  });
  expect(names).toHaveLength(db.mode === 'server' ? 1 : 0);
});

it.runIf(process.env.TEST_DATABASE_URL)(
  'behind a transaction-pooling PgBouncer (?pgbouncer=true) no statement is kept prepared',
  async () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const url = await createServerDatabase(serverUrl);
    const pooled = new URL(url);
    pooled.searchParams.set('pgbouncer', 'true');
    const bouncer = await openDatabase({ mode: 'server', url: pooled.toString() });
    try {
      const names = await sqlTransaction(bouncer.prisma, async (_tx, sql) => {
        expect(await sql.run(hot, { n: 4 })).toEqual([{ twice: 8 }]);
        return sql.query(preparedHere, [preparedStatementName({ sql: hot.text })]);
      });
      expect(names).toEqual([]);
    } finally {
      await bouncer.close();
      await dropServerDatabase(serverUrl, url);
    }
  },
);

it("a statement's row schema types and checks its rows; a row that does not fit is an error, not a cast", async () => {
  const sql = plainSql(db.prisma);
  const typed = new PreparedStatement(
    `SELECT $n::int AS n, now() AS at, 9007199254740993::int8 AS big, '[["a","1"]]'::json AS pairs`,
    z.object({
      n: column.int,
      at: column.timestamp,
      big: column.bigint,
      pairs: column.json(z.array(z.tuple([z.string(), z.string()]))),
    }),
  );
  const [row] = await sql.run(typed, { n: 7 });
  expect(row.n).toBe(7);
  expect(row.at).toBeInstanceOf(Date);
  expect(row.big).toBe(9007199254740993n);
  expect(row.pairs).toEqual([['a', '1']]);
  const wrong = new PreparedStatement(`SELECT 'x' AS n`, z.object({ n: column.int }));
  await expect(sql.run(wrong, {})).rejects.toThrow(/expected number/i);
  // Without a schema only the number of rows is of use.
  expect(await sql.run(new PreparedStatement('SELECT 1 UNION ALL SELECT 2'), {})).toHaveLength(2);
});

it('a statement joined by withWrite stores its write with it, or neither when the statement fails', async () => {
  const sql = plainSql(db.prisma);
  const rename = new PreparedStatement(`UPDATE "Project" SET name = $name WHERE id = $id::int`);
  const divide = new PreparedStatement(
    `WITH one AS (SELECT $n::int AS n) SELECT (100 / n)::int AS q, $id::int AS id FROM one`,
    z.object({ q: column.int, id: column.int }),
  );
  const project = await db.prisma.project.create({ data: { name: 'before', webhookSecret: 'x' } });
  const joined = divide.withWrite(rename, 'also_');
  expect(divide.withWrite(rename, 'also_')).toBe(joined);
  // Both statements name $id: each keeps its own.
  const params = (n: number) => ({ n, id: -1, ...prefixed('also_', { name: `after ${n}`, id: project.id }) });
  expect(await sql.run(joined, params(4))).toEqual([{ q: 25, id: -1 }]);
  expect((await db.prisma.project.findUniqueOrThrow({ where: { id: project.id } })).name).toBe('after 4');
  await expect(sql.run(joined, params(0))).rejects.toThrow(/division by zero/);
  expect((await db.prisma.project.findUniqueOrThrow({ where: { id: project.id } })).name).toBe('after 4');
});
