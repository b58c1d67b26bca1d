/**
 * How a send the messenger could not take (a 5xx, a network error) is tried again: after
 * 0.5 s, then twice as long each time up to 8 s, as long as the next try starts within the
 * bound (the channel's BLOCKBOT_<KIND>_RETRY_SECONDS) of the first. Pure.
 */

const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 8000;

/** The pause before try `attempt + 1`, or null when that try would start past `withinMs`. */
export function retryPause(attempt: number, elapsedMs: number, withinMs: number): number | null {
  const pause = Math.min(FIRST_PAUSE_MS * 2 ** attempt, LONGEST_PAUSE_MS);
  return elapsedMs + pause <= withinMs ? pause : null;
}

/** A held send's first pause, and its longest: each try after waits twice as long as the one before. */
const FIRST_HOLD_MS = 15_000;
const LONGEST_HOLD_MS = 30 * 60_000;

/**
 * When a held send (one the messenger could not take for longer than a send waits) is tried
 * again: 15 s after try `attempt` (0 the first), then twice as long each time up to 30 min,
 * the last try at the end of `horizonMs` from `queuedAt`; null once that end has passed (the
 * send then fails for good).
 */
export function heldRetryAt(attempt: number, queuedAt: Date, now: Date, horizonMs: number): Date | null {
  const end = queuedAt.getTime() + horizonMs;
  if (now.getTime() >= end) return null;
  const pause = Math.min(FIRST_HOLD_MS * 2 ** Math.min(attempt, 20), LONGEST_HOLD_MS);
  return new Date(Math.min(now.getTime() + pause, end));
}
