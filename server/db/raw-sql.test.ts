import { afterAll, beforeAll, expect, it } from 'vitest';
import { plainSql, sqlTransaction } from './raw-sql';
import { createTestDatabase, type TestDatabase } from './test-support';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.close());

it("plain SQL runs in the same transaction as Prisma's tx, also with many transactions at once", async () => {
  const pairs = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      sqlTransaction(db.prisma, async (tx, sql) => {
        const [raw] = await sql.query<{ xid: string }>('SELECT txid_current()::text AS xid');
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
