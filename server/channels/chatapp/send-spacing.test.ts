import { describe, expect, it } from 'vitest';
import { createSendSpacing } from './send-spacing';

/** A clock that moves only when the test says: waits resolve once it has passed their end. */
function virtualClock() {
  let now = 0;
  const waiting: { until: number; resolve: () => void }[] = [];
  return {
    now: () => now,
    wait(ms: number) {
      return new Promise<void>((resolve) => waiting.push({ until: now + ms, resolve }));
    },
    /** Moves to `to` and wakes every wait that ended by then, all at once (a stalled loop). */
    async advance(to: number) {
      now = to;
      const due = waiting.filter((w) => w.until <= to);
      waiting.splice(0, waiting.length, ...waiting.filter((w) => w.until > to));
      for (const w of due) w.resolve();
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe('a number’s sends spaced from when they really left', () => {
  it('lets no two leave closer than the interval, even when every wait wakes at once', async () => {
    const clock = virtualClock();
    const spacing = createSendSpacing(10, clock);
    const left: number[] = [];
    const all = Promise.all(
      Array.from({ length: 20 }, () => spacing.turn('n').then(() => left.push(clock.now()))),
    );
    await clock.advance(0);
    // The loop stalls for 100 ms: ten sends were due meanwhile, and only one may leave now.
    await clock.advance(100);
    for (let t = 105; left.length < 20; t += 5) await clock.advance(t);
    await all;
    expect(left[0]).toBe(0);
    for (let i = 1; i < left.length; i++) expect(left[i] - left[i - 1]).toBeGreaterThanOrEqual(10);
    // In any second, at most 1000 / 10 of them.
    expect(left.filter((t) => t >= 100 && t < 200).length).toBeLessThanOrEqual(10);
  });

  it('spaces each key on its own', async () => {
    const clock = virtualClock();
    const spacing = createSendSpacing(10, clock);
    await Promise.all([spacing.turn('a'), spacing.turn('b')]);
    expect(clock.now()).toBe(0);
  });

  it('spaces a slowed key further apart than the interval when asked', async () => {
    const clock = virtualClock();
    const spacing = createSendSpacing(10, clock);
    const left: number[] = [];
    const all = Promise.all([0, 1, 2].map(() => spacing.turn('n', 50).then(() => left.push(clock.now()))));
    for (let t = 0; left.length < 3; t += 10) await clock.advance(t);
    await all;
    expect(left).toEqual([0, 50, 100]);
  });
});
