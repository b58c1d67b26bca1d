import { PrismaPGlite } from 'pglite-prisma-adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@/server/db/client-type';
import { openDatabase } from '@/server/db/database';
import { createPrismaClient } from '@/server/db/raw-sql';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { waitFor } from '@/server/testing/wait-for';
import { RATE_WINDOW_MS, takeRate } from './rate-limit';

let database: TestDatabase;
/** Two instances of the app on one database: their own connections and Prisma clients. */
let a: PrismaClient;
let b: PrismaClient;
let closeB: () => Promise<void>;

beforeAll(async () => {
  database = await createTestDatabase();
  a = database.prisma;
  if (database.url) {
    const other = await openDatabase({ mode: 'server', url: database.url });
    b = other.prisma;
    closeB = () => other.close();
  } else {
    // Embedded: one process holds the database; a second client on it stands for the other.
    b = createPrismaClient(new PrismaPGlite(database.pglite!));
    closeB = () => b.$disconnect();
  }
});

afterAll(async () => {
  await closeB?.();
  await database?.close();
});

let n = 0;
const freshKey = () => `test:${++n}:${Math.random()}`;

describe('rate limits in the database', () => {
  it('one limit, counted by two instances together', async () => {
    const key = freshKey();
    const now = Date.now();
    const take = (db: PrismaClient) => takeRate(db, [{ key, perMinute: 3 }], now);
    expect((await take(a)).allowed).toBe(true);
    expect((await take(b)).allowed).toBe(true);
    expect((await take(a)).allowed).toBe(true);
    const refused = await take(b);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBe(60);
    expect((await take(a)).allowed).toBe(false);
  });

  it('counts concurrent requests from both instances exactly', async () => {
    const key = freshKey();
    const decisions = await Promise.all(
      Array.from({ length: 30 }, (_, i) => takeRate(i % 2 ? a : b, [{ key, perMinute: 10 }])),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
  });

  it('opens a new window a minute after the first request, and says how long until then', async () => {
    const key = freshKey();
    const start = Date.now();
    const take = (db: PrismaClient, at: number) => takeRate(db, [{ key, perMinute: 2 }], at);
    await take(a, start);
    await take(b, start + 10_000);
    expect(await take(a, start + 20_000)).toEqual({ allowed: false, retryAfter: 40 });
    expect(await take(b, start + 59_500)).toEqual({ allowed: false, retryAfter: 1 });
    // The new window starts at its first request: two more, then refused until it ends.
    expect((await take(b, start + RATE_WINDOW_MS)).allowed).toBe(true);
    expect((await take(a, start + RATE_WINDOW_MS + 30_000)).allowed).toBe(true);
    expect(await take(a, start + RATE_WINDOW_MS + 45_000)).toEqual({ allowed: false, retryAfter: 15 });
  });

  it('moves every counter of a request; refused when any is over, with the longest wait', async () => {
    const [visitor, address] = [freshKey(), freshKey()];
    const start = Date.now();
    await takeRate(a, [{ key: address, perMinute: 1 }], start);
    const both = (at: number) =>
      takeRate(
        b,
        [
          { key: visitor, perMinute: 1 },
          { key: address, perMinute: 1 },
        ],
        at,
      );
    expect(await both(start + 5_000)).toEqual({ allowed: false, retryAfter: 55 });
    // The visitor's counter moved too, in a window of its own: the address's ends first.
    expect(await both(start + 20_000)).toEqual({ allowed: false, retryAfter: 45 });
  });

  it('deletes ended windows', async () => {
    const old = freshKey();
    const start = Date.now() + 10 * RATE_WINDOW_MS;
    await takeRate(a, [{ key: old, perMinute: 5 }], start);
    // A take a few minutes on clears what ended (once a minute per process, in the background).
    await takeRate(a, [{ key: freshKey(), perMinute: 5 }], start + 3 * RATE_WINDOW_MS);
    await waitFor(
      async () => !(await a.rateWindow.findUnique({ where: { key: old } })),
      'the old window gone',
    );
  });
});
