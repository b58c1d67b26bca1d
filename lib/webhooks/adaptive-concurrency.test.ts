import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency, answeredQuickly, WEBHOOK_CONCURRENCY } from './adaptive-concurrency';

const options = { initial: 2, min: 1, max: 32, slowMs: 1000 };
const quick = { status: 200, durationMs: 5 };

/** Runs `n` deliveries one after another, each started and answered with `outcome`. */
function answer(limit: AdaptiveConcurrency, n: number, outcome = quick) {
  for (let i = 0; i < n; i++) limit.finish(limit.start(), outcome);
}

describe('AdaptiveConcurrency', () => {
  it('starts at its initial limit, which a receiver that never answers keeps', () => {
    const limit = new AdaptiveConcurrency(options);
    limit.start();
    limit.start();
    expect(limit.limit).toBe(2);
    expect(new AdaptiveConcurrency().limit).toBe(WEBHOOK_CONCURRENCY.initial);
  });

  it('grows by one a quick answer up to its maximum while the receiver keeps up', () => {
    const limit = new AdaptiveConcurrency(options);
    answer(limit, 6);
    expect(limit.limit).toBe(8);
    answer(limit, 100);
    expect(limit.limit).toBe(32);
  });

  it('halves once for a burst of failures of deliveries started together, then grows by one a window', () => {
    const limit = new AdaptiveConcurrency(options);
    answer(limit, 14);
    expect(limit.limit).toBe(16);
    const tickets = Array.from({ length: 16 }, () => limit.start());
    for (const ticket of tickets) limit.finish(ticket, { status: null, durationMs: 5000 });
    expect(limit.limit).toBe(8);
    // Past the slowdown: one more a full window of quick answers, no longer one an answer.
    answer(limit, 8);
    expect(limit.limit).toBe(9);
    answer(limit, 9);
    expect(limit.limit).toBe(10);
  });

  it('shrinks to its minimum while every answer is slow or an error, and grows back after', () => {
    const limit = new AdaptiveConcurrency(options);
    answer(limit, 30);
    for (const outcome of [
      { status: 200, durationMs: 2500 },
      { status: 503, durationMs: 3 },
      { status: 429, durationMs: 3 },
      { status: null, durationMs: 10 },
      { status: 500, durationMs: 3 },
      { status: 502, durationMs: 3 },
    ])
      limit.finish(limit.start(), outcome);
    expect(limit.limit).toBe(1);
    // One a window: one quick answer at 1, two at 2.
    answer(limit, 1);
    expect(limit.limit).toBe(2);
    answer(limit, 2);
    expect(limit.limit).toBe(3);
  });

  it("counts a quick 4xx as the receiver coping: the request was refused, not the receiver's load", () => {
    expect(answeredQuickly({ status: 404, durationMs: 3 }, 1000)).toBe(true);
    expect(answeredQuickly({ status: 429, durationMs: 3 }, 1000)).toBe(false);
    expect(answeredQuickly({ status: 200, durationMs: 1001 }, 1000)).toBe(false);
    expect(answeredQuickly({ status: null, durationMs: 1 }, 1000)).toBe(false);
  });
});
