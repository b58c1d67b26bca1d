import type { PrismaClient } from '@/server/db/client-type';
import { deleteEndedWindows, takeWindows } from '@/server/db/rate-limit-sql';
import { plainSql } from '@/server/db/raw-sql';
import { logFor } from '@/server/log';

const log = logFor('rate-limit');

/**
 * Fixed one-minute rate-limit windows, kept in the database so that every instance counts
 * into the same window (the public API's, server/public-api/rate-limit.ts, and the chat
 * widget's, server/channels/widget/limits.ts). A key's window opens at its first request and
 * lasts a minute; one statement counts a request against all the limits it is under.
 *
 * Every take of a key waits on its row's lock, so a busy key's takes would queue there one
 * by one: the takes of the same keys that come while this process's statement for them is on
 * its way leave together right after it, as one statement adding their number. Each still
 * gets its own place in the window's count, so the limit holds exactly.
 */
export const RATE_WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  /** When refused: seconds until the window that refused resets, for Retry-After. */
  retryAfter: number;
}

/** A counter and its limit per minute; keys are namespaced by their caller (`api:`, `widget:`…). */
export interface RateLimit {
  key: string;
  perMinute: number;
}

interface Waiting {
  limits: readonly RateLimit[];
  now: number;
  resolve(decision: RateDecision): void;
  reject(error: unknown): void;
}

/** The takes of one set of keys waiting for the statement on its way. */
interface Batch {
  waiting: Waiting[];
}

const globalForRates = globalThis as unknown as {
  blockbotRates?: { sweptAt: number; batches: WeakMap<PrismaClient, Map<string, Batch>> };
};
globalForRates.blockbotRates ??= { sweptAt: 0, batches: new WeakMap() };
const rates = globalForRates.blockbotRates;

/**
 * Counts one request against each limit (all of them move, refused or not); refused when any
 * is over, with the longest wait among those.
 */
export function takeRate(
  db: PrismaClient,
  limits: readonly RateLimit[],
  now = Date.now(),
): Promise<RateDecision> {
  // One limit (an API key's) is the common case: no set, no sort.
  const keys = limits.length === 1 ? [limits[0].key] : [...new Set(limits.map((l) => l.key))].sort();
  let byKeys = rates.batches.get(db);
  if (!byKeys) {
    byKeys = new Map();
    rates.batches.set(db, byKeys);
  }
  const signature = keys.join('\n');
  const decision = new Promise<RateDecision>((resolve, reject) => {
    const batch = byKeys.get(signature);
    const waiting = { limits, now, resolve, reject };
    if (batch) batch.waiting.push(waiting);
    else {
      byKeys.set(signature, { waiting: [] });
      void send(db, byKeys, signature, keys, [waiting]);
    }
  });
  sweep(db, now);
  return decision;
}

/** One statement for `takes`; then the takes that came meanwhile, until none did. */
async function send(
  db: PrismaClient,
  byKeys: Map<string, Batch>,
  signature: string,
  keys: string[],
  takes: Waiting[],
): Promise<void> {
  for (let batch = takes; batch.length; ) {
    const { now } = batch[0];
    try {
      const rows = await plainSql(db).run(takeWindows, {
        keys,
        by: batch.length,
        now: new Date(now),
        expired: new Date(now - RATE_WINDOW_MS),
      });
      // Each row holds its window's count after this statement: the batch's takes are its last places, in order.
      for (const [i, take] of batch.entries()) take.resolve(decide(take, rows, batch.length - 1 - i));
    } catch (error) {
      for (const take of batch) take.reject(error);
    }
    const next = byKeys.get(signature);
    batch = next?.waiting.splice(0) ?? [];
  }
  byKeys.delete(signature);
}

function decide(
  take: Waiting,
  rows: { key: string; windowStart: Date; count: number }[],
  /** How many of its batch's takes come after this one. */
  after: number,
): RateDecision {
  let retryAfter = 0;
  for (const row of rows) {
    const limit = take.limits.find((l) => l.key === row.key);
    if (!limit || row.count - after <= limit.perMinute) continue;
    const left = Math.ceil((row.windowStart.getTime() + RATE_WINDOW_MS - take.now) / 1000);
    retryAfter = Math.max(retryAfter, left, 1);
  }
  return { allowed: retryAfter === 0, retryAfter };
}

/** Each process clears ended windows about once a minute, off the request's path. */
function sweep(db: PrismaClient, now: number) {
  if (now - rates.sweptAt < RATE_WINDOW_MS) return;
  rates.sweptAt = now;
  plainSql(db)
    .run(deleteEndedWindows, { expired: new Date(now - RATE_WINDOW_MS) })
    .catch((error: Error) => log.error(`clearing ended windows failed: ${error.message}`));
}
