import pg from 'pg';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { column } from './columns';
import { type Database, openDatabase } from './database';
import { PreparedStatement, plainSql, sqlTransaction } from './raw-sql';
import { createServerDatabase, dropServerDatabase } from './test-support';

/** A new migrated PostgreSQL database opened for `fn`, dropped after it. */
async function onServerDatabase(fn: (db: Database, url: string) => Promise<void>) {
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const url = await createServerDatabase(serverUrl);
  const db = await openDatabase({ mode: 'server', url });
  try {
    await fn(db, url);
  } finally {
    await db.close();
    await dropServerDatabase(serverUrl, url);
  }
}

it.runIf(process.env.TEST_DATABASE_URL)(
  'statements that share go to a few shared connections: one that fails fails alone, and a lost connection is opened again',
  () =>
    onServerDatabase(async (db, url) => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const backend = z.object({ pid: z.number() });
      const shared = new PreparedStatement('SELECT pg_backend_pid() AS pid, $n::int AS n', backend, {
        shares: true,
      });
      const own = new PreparedStatement('SELECT pg_backend_pid() AS pid, $n::int + 0 AS n', backend);
      const failing = new PreparedStatement('SELECT pg_backend_pid() AS pid, 1 / $n::int AS n', backend, {
        shares: true,
      });
      const sql = plainSql(db.prisma);
      const pids = async (statement: PreparedStatement<{ pid: number }>, count: number) =>
        new Set(
          (await Promise.all(Array.from({ length: count }, (_, n) => sql.run(statement, { n }))))
            .flat()
            .map((r) => r.pid),
        );
      try {
        const sharedPids = await pids(shared, 30);
        expect(sharedPids.size).toBeGreaterThan(0);
        expect(sharedPids.size).toBeLessThanOrEqual(3);
        // A statement that does not share takes a pooled connection, never a shared one.
        for (const pid of await pids(own, 10)) expect(sharedPids.has(pid)).toBe(false);
        // Neither does one in a transaction: it runs on the transaction's connection.
        const inTransaction = await sqlTransaction(db.prisma, (_tx, tsql) => tsql.run(shared, { n: 1 }));
        expect(sharedPids.has(inTransaction[0].pid)).toBe(false);

        // A division by zero among statements sent together on the shared connections fails alone.
        const mixed = await Promise.allSettled(
          Array.from({ length: 9 }, (_, n) => sql.run(n === 4 ? failing : shared, { n: n === 4 ? 0 : n })),
        );
        expect(mixed.map((r) => r.status)).toEqual([
          ...Array(4).fill('fulfilled'),
          'rejected',
          ...Array(4).fill('fulfilled'),
        ]);
        expect(String((mixed[4] as PromiseRejectedResult).reason)).toMatch(/division by zero/);
        for (const r of mixed)
          if (r.status === 'fulfilled') expect(sharedPids.has(r.value[0].pid)).toBe(true);

        // The shared connections are lost: statements in flight then may fail, as on a pooled
        // connection; once those have settled, every statement is answered on new connections.
        await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [
          [...sharedPids],
        ]);
        await expect
          .poll(
            async () =>
              (
                await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ANY($1)', [
                  [...sharedPids],
                ])
              ).rows[0].n,
          )
          .toBe(0);
        await Promise.allSettled(Array.from({ length: 6 }, (_, n) => sql.run(shared, { n })));
        const reopened = await pids(shared, 6);
        for (const pid of reopened) expect(sharedPids.has(pid)).toBe(false);
      } finally {
        await admin.end();
      }
    }),
);

it.runIf(process.env.TEST_DATABASE_URL)(
  'a statement that shares reads every column type as through the driver adapter, in any time zone',
  () =>
    onServerDatabase(async (db) => {
      const zone = process.env.TZ;
      // pg's own parsers would read a timestamp in this zone, 5 hours off UTC.
      process.env.TZ = 'America/New_York';
      const text = `SELECT $n::int AS int, 9007199254740993::int8 AS big, 1.50::numeric AS num, 'x'::text AS text,
        true AS bool, $at::timestamp(3) AS at, $at::timestamptz AS attz, $at::timestamp(3)::date AS day,
        '{"a":1}'::json AS j, '"s"'::jsonb AS jb, ARRAY['a', NULL]::text[] AS texts, ARRAY[1, 2] AS ints,
        ARRAY['{"b":2}'::jsonb, NULL] AS jbs, ARRAY[$at::timestamp(3), NULL] AS ats,
        ARRAY[$at::timestamp(3)::date] AS days, NULL::text AS nothing`;
      const parsed = z.object({
        int: column.int,
        big: column.bigint,
        at: column.timestamp,
        attz: column.timestamp,
        j: column.json(z.object({ a: z.number() })),
        jb: column.json(z.string()),
      });
      const at = new Date('2026-12-07T01:02:03.456Z');
      const sql = plainSql(db.prisma);
      try {
        const [viaShared] = await sql.run(new PreparedStatement(text, undefined, { shares: true }), {
          n: 7,
          at,
        });
        const [viaAdapter] = await sql.run(new PreparedStatement(`${text} -- through the adapter`), {
          n: 7,
          at,
        });
        const row = viaShared as unknown as Record<string, unknown>;
        const adapterRow = viaAdapter as unknown as Record<string, unknown>;
        expect(parsed.parse(row)).toEqual(parsed.parse(adapterRow));
        expect(parsed.parse(row)).toMatchObject({
          at,
          attz: at,
          j: { a: 1 },
          jb: 's',
          big: 9007199254740993n,
        });
        const instants = (values: unknown) =>
          (values as (string | null)[]).map((t) => t && new Date(t).getTime());
        expect(instants(row.ats)).toEqual(instants(adapterRow.ats));
        expect(instants(row.ats)).toEqual([at.getTime(), null]);
        const same = ['num', 'text', 'bool', 'day', 'texts', 'ints', 'jbs', 'days', 'nothing'];
        for (const name of same) expect([name, row[name]]).toEqual([name, adapterRow[name]]);
        expect(row.day).toBe('2026-12-07');
      } finally {
        process.env.TZ = zone;
      }
    }),
);
