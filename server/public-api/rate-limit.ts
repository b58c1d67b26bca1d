import type { PrismaClient } from '@/server/db/client-type';
import { type RateDecision, takeRate } from '@/server/rate-limit';

/**
 * The public API's rate limits, per minute and shared by every instance (server/rate-limit.ts):
 * requests per key, and unknown or revoked keys per address.
 */

/** Unknown or revoked keys an address may present per minute before it is answered 429. */
export const FAILED_KEY_LOOKUPS_PER_MINUTE = 30;

/** The counter of an API key's requests. */
export const apiKeyRateKey = (keyId: number) => `api:key:${keyId}`;

export function takeToken(
  db: PrismaClient,
  keyId: number,
  limitPerMinute: number,
  now = Date.now(),
): Promise<RateDecision> {
  return takeRate(db, [{ key: apiKeyRateKey(keyId), perMinute: limitPerMinute }], now);
}

/** Counts a key that matched no live key, for the address that presented it. */
export function countFailedKeyLookup(
  db: PrismaClient,
  address: string,
  now = Date.now(),
): Promise<RateDecision> {
  return takeRate(db, [{ key: `api:bad-key:${address}`, perMinute: FAILED_KEY_LOOKUPS_PER_MINUTE }], now);
}
