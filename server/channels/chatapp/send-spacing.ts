import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Sends of one key (a number) spaced at least `intervalMs` apart, measured from when the last
 * one really left: a stalled event loop must not let sends planned apart leave together, which
 * spacing by planned times would (they all wake at once). The clock and the wait are given, so
 * a test can stall and advance time as it likes.
 */
export interface SendSpacing {
  /**
   * Resolves when a send for `key` may leave now (`atLeastMs`, when longer than the interval,
   * after the last one: a key slowed for now); it is counted as leaving then.
   */
  turn(key: string, atLeastMs?: number): Promise<void>;
  setInterval(ms: number): void;
}

export function createSendSpacing(
  intervalMs: number,
  clock: { now(): number; wait(ms: number): Promise<unknown> } = { now: Date.now, wait: sleep },
): SendSpacing {
  let interval = intervalMs;
  const lastLeft = new Map<string, number>();
  return {
    async turn(key, atLeastMs = 0) {
      for (;;) {
        const now = clock.now();
        const wait = (lastLeft.get(key) ?? Number.NEGATIVE_INFINITY) + Math.max(interval, atLeastMs) - now;
        if (wait <= 0) {
          lastLeft.set(key, now);
          return;
        }
        await clock.wait(wait);
      }
    },
    setInterval(ms) {
      interval = ms;
    },
  };
}
