import type { PrismaClient } from '@/server/db/client-type';
import { deleteEndedWindows, takeWindows } from '@/server/db/rate-limit-sql';
import { plainSql } from '@/server/db/raw-sql';

/**
 * Fixed one-minute rate-limit windows, kept in the database so that every instance counts
 * into the same window (the public API's, server/public-api/rate-limit.ts, and the chat
 * widget's, server/channels/widget/limits.ts). A key's window opens at its first request and
 * lasts a minute; one statement counts a request against all the limits it is under.
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

const globalForRates = globalThis as unknown as { blockbotRateSweep?: number };

/**
 * Counts one request against each limit (all of them move, refused or not); refused when any
 * is over, with the longest wait among those.
 */
export async function takeRate(
  db: PrismaClient,
  limits: readonly RateLimit[],
  now = Date.now(),
): Promise<RateDecision> {
  const expired = new Date(now - RATE_WINDOW_MS);
  const sql = plainSql(db);
  const rows = await sql.run(takeWindows, {
    keys: [...new Set(limits.map((l) => l.key))].sort(),
    now: new Date(now),
    expired,
  });
  // Each process clears ended windows about once a minute, off the request's path.
  if (now - (globalForRates.blockbotRateSweep ?? 0) >= RATE_WINDOW_MS) {
    globalForRates.blockbotRateSweep = now;
    sql
      .run(deleteEndedWindows, { expired })
      .catch((error: Error) => console.error('[rate-limit] clearing ended windows failed:', error.message));
  }
  const perMinute = new Map(limits.map((l) => [l.key, l.perMinute]));
  let retryAfter = 0;
  for (const row of rows) {
    if (row.count <= (perMinute.get(row.key) ?? Number.POSITIVE_INFINITY)) continue;
    const left = Math.ceil((row.windowStart.getTime() + RATE_WINDOW_MS - now) / 1000);
    retryAfter = Math.max(retryAfter, left, 1);
  }
  return { allowed: retryAfter === 0, retryAfter };
}
