import net from 'node:net';
import { expect, it } from 'vitest';
import { openDatabase } from './database';
import { PreparedStatement, sqlTransaction } from './raw-sql';
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
