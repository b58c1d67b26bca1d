/**
 * Per-key fixed-window rate limiting, in this process's memory: each app instance enforces the
 * limit on the requests it serves (documented in the README's scaling section).
 */
const WINDOW_MS = 60_000;
const windows = new Map<number, { start: number; count: number }>();

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets, for Retry-After. */
  retryAfter: number;
}

export function takeToken(keyId: number, limitPerMinute: number, now = Date.now()): RateDecision {
  let window = windows.get(keyId);
  if (!window || now - window.start >= WINDOW_MS) {
    window = { start: now, count: 0 };
    windows.set(keyId, window);
    if (windows.size > 10_000) pruneOld(now);
  }
  window.count++;
  const retryAfter = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
  return { allowed: window.count <= limitPerMinute, retryAfter };
}

function pruneOld(now: number) {
  for (const [key, window] of windows) if (now - window.start >= WINDOW_MS) windows.delete(key);
}
