import { describe, expect, it } from 'vitest';
import { heldRetryAt, retryPause } from './retry';

describe('retryPause', () => {
  it('doubles from half a second up to 8 s', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((attempt) => retryPause(attempt, 0, 60_000))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });

  it('gives up when the next try would start past the bound', () => {
    expect(retryPause(2, 27_000, 30_000)).toBe(2000);
    expect(retryPause(2, 28_001, 30_000)).toBeNull();
    expect(retryPause(0, 0, 0)).toBeNull();
  });
});

describe('heldRetryAt', () => {
  const queuedAt = new Date('2026-12-05T10:00:00Z');
  const later = (ms: number) => new Date(queuedAt.getTime() + ms);

  it('waits 15 s, then twice as long each time, up to 30 min', () => {
    const pauses = [0, 1, 2, 3, 6, 7, 8, 50].map(
      (attempt) => heldRetryAt(attempt, queuedAt, queuedAt, 24 * 3600_000)!.getTime() - queuedAt.getTime(),
    );
    expect(pauses).toEqual([15_000, 30_000, 60_000, 120_000, 960_000, 1_800_000, 1_800_000, 1_800_000]);
  });

  it('tries a last time at the end of the horizon, then gives up', () => {
    const hour = 3600_000;
    expect(heldRetryAt(8, queuedAt, later(50 * 60_000), hour)).toEqual(later(hour));
    expect(heldRetryAt(9, queuedAt, later(hour), hour)).toBeNull();
    expect(heldRetryAt(0, queuedAt, queuedAt, 0)).toBeNull();
  });
});
