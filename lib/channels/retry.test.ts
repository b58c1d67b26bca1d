import { describe, expect, it } from 'vitest';
import { retryPause } from './retry';

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
