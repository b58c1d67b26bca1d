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
