import net from 'node:net';
import pg from 'pg';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase } from './database';
import { PreparedStatement, plainSql, sqlTransaction } from './raw-sql';
import { createServerDatabase, dropServerDatabase } from './test-support';

/** A TCP proxy to PostgreSQL counting the client's turns: what it sends before the server answers. */
async function turnCountingProxy(target: URL) {
  const counter = { turns: 0 };
  let serverSpokeLast = true;
  const proxy = net.createServer((client) => {
    const server = net.connect(Number(target.port || 5432), target.hostname);
    client.on('data', (data) => {
      if (serverSpokeLast) counter.turns++;
      serverSpokeLast = false;
      server.write(data);
    });
    server.on('data', (data) => {
      serverSpokeLast = true;
      client.write(data);
    });
    for (const [a, b] of [
      [client, server],
      [server, client],
    ]) {
      a.on('close', () => b.destroy());
      a.on('error', () => b.destroy());
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  return { url: url.toString(), counter, close: () => proxy.close() };
}

it.runIf(process.env.TEST_DATABASE_URL)(
  'a transaction takes two round trips: BEGIN leaves with its first statement, COMMIT with its last',
  async () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const url = await createServerDatabase(serverUrl);
    const proxy = await turnCountingProxy(new URL(url));
    const db = await openDatabase({ mode: 'server', url: proxy.url });
    try {
      const last = new PreparedStatement('SELECT $n::int AS n');
      const transaction = () =>
        sqlTransaction(db.prisma, async (_tx, sql) => {
          expect(await sql.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
          return sql.runAndCommit(last, { n: 2 });
        });
      // The first one finds the pool's connection open and prepares the statement.
      await transaction();
      proxy.counter.turns = 0;
      expect(await transaction()).toEqual([{ n: 2 }]);
      expect(proxy.counter.turns).toBe(2);
    } finally {
      await db.close();
      proxy.close();
      await dropServerDatabase(serverUrl, url);
    }
  },
);

it.runIf(process.env.TEST_DATABASE_URL)(
  'statements that share go to a few shared connections: one that fails fails alone, and a lost connection is opened again',
  async () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const url = await createServerDatabase(serverUrl);
    const db = await openDatabase({ mode: 'server', url });
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
      for (const r of mixed) if (r.status === 'fulfilled') expect(sharedPids.has(r.value[0].pid)).toBe(true);

      // The shared connections are lost: statements in flight then may fail, as on a pooled
      // connection; once those have settled, every statement is answered on new connections.
      await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [[...sharedPids]]);
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
      await db.close();
      await dropServerDatabase(serverUrl, url);
    }
  },
);
