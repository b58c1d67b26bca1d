/**
 * Fixed-window rate limiting, in this process's memory: each app instance enforces the limits
 * on the requests it serves (documented in the README's scaling section).
 */
const WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets, for Retry-After. */
  retryAfter: number;
}

/** Counters per key over fixed one-minute windows (also the chat widget's, server/channels/widget/limits.ts). */
export class FixedWindows<K> {
  private readonly windows = new Map<K, { start: number; count: number }>();

  take(key: K, limitPerMinute: number, now: number): RateDecision {
    let window = this.windows.get(key);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 10_000) this.pruneOld(now);
    }
    window.count++;
    const retryAfter = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
    return { allowed: window.count <= limitPerMinute, retryAfter };
  }

  private pruneOld(now: number) {
    for (const [key, window] of this.windows) if (now - window.start >= WINDOW_MS) this.windows.delete(key);
  }
}

const requestsByKey = new FixedWindows<number>();
const failedLookupsByAddress = new FixedWindows<string>();

/** Unknown or revoked keys an address may present per minute before it is answered 429. */
export const FAILED_KEY_LOOKUPS_PER_MINUTE = 30;

export function takeToken(keyId: number, limitPerMinute: number, now = Date.now()): RateDecision {
  return requestsByKey.take(keyId, limitPerMinute, now);
}

/** Counts a key that matched no live key, for the address that presented it. */
export function countFailedKeyLookup(address: string, now = Date.now()): RateDecision {
  return failedLookupsByAddress.take(address, FAILED_KEY_LOOKUPS_PER_MINUTE, now);
}
