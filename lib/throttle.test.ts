import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle';

describe('throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the first call at once, then at most once an interval, the last call trailing', () => {
    let value = 0;
    const sent: number[] = [];
    const t = throttle(() => sent.push(value), 125);
    value = 1;
    t.call();
    expect(sent).toEqual([1]);
    for (value = 2; value <= 5; value++) {
      vi.advanceTimersByTime(20);
      t.call();
    }
    value = 5;
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(45);
    // The trailing call reads the latest value, 125 ms after the first.
    expect(sent).toEqual([1, 5]);
    vi.advanceTimersByTime(1_000);
    expect(sent).toEqual([1, 5]);
  });

  it('runs at once again once an interval has passed, and sends no more than 8 a second', () => {
    const sent: number[] = [];
    const t = throttle(() => sent.push(Date.now()), 125);
    // A call every 10 ms for just under a second.
    for (let i = 0; i < 99; i++) {
      t.call();
      vi.advanceTimersByTime(10);
    }
    expect(sent).toHaveLength(8);
    for (let i = 1; i < sent.length; i++) expect(sent[i] - sent[i - 1]).toBeGreaterThanOrEqual(125);
  });

  it('cancel drops the trailing call', () => {
    const run = vi.fn();
    const t = throttle(run, 125);
    t.call();
    t.call();
    t.cancel();
    vi.advanceTimersByTime(500);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
