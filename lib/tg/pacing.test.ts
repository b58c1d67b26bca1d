import { describe, expect, it } from 'vitest';
import { isGroupChat, slotSpacing, TG_LIMITS } from './pacing';

/** The most sends in any window of `ms` among sorted times. */
function busiestWindow(times: number[], ms: number): number {
  let most = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end] - times[start] >= ms) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** Sends spaced as the slots are, each late by up to `jitterMs` (alternately late and on time). */
const spaced = (count: number, ms: number, jitterMs: number) =>
  Array.from({ length: count }, (_, i) => i * ms + (i % 2 ? 0 : jitterMs)).sort((a, b) => a - b);

describe('the spacing of sends to the tg messenger', () => {
  it('tells groups (negative ids) from private chats', () => {
    expect(isGroupChat(-100200)).toBe(true);
    expect(isGroupChat('-5')).toBe(true);
    expect(isGroupChat(42)).toBe(false);
  });

  it('keeps a bot under 30 a second even when every other send is a few ms late', () => {
    const { botMs } = slotSpacing(42);
    expect(botMs).toBeGreaterThan(1000 / 30);
    // On time, 29 fit in a second: the margin costs about one send a second (10,000 sends take
    // 353 s rather than 343), and keeps 30 sends each up to 25 ms late within a second too.
    expect(busiestWindow(spaced(10_000, botMs, 0), 1000)).toBe(29);
    expect(busiestWindow(spaced(10_000, botMs, 25), 1000)).toBeLessThanOrEqual(30);
    // A 10,000-recipient broadcast takes about 10,000 / 30 seconds.
    expect((10_000 * botMs) / 1000).toBeLessThan(10_000 / 30 + 40);
  });

  it('keeps a private chat at one a second and a group at 20 a minute, with a margin', () => {
    const chat = slotSpacing(42).chatMs;
    expect(busiestWindow(spaced(100, chat, 40), 1000)).toBe(1);
    const group = slotSpacing(-100200).chatMs;
    expect(group).toBeGreaterThan(3000);
    expect(busiestWindow(spaced(100, group, 40), 60_000)).toBeLessThanOrEqual(20);
  });

  it('lifts every spacing for unlimited limits (the benchmark measuring the channel alone)', () => {
    const unlimited = { botPerSecond: 1e9, privateChatIntervalMs: 0, groupPerMinute: 1e9 };
    expect(slotSpacing(42, unlimited)).toEqual({ botMs: 1e-6, chatMs: 0 });
    expect(slotSpacing(42, TG_LIMITS).chatMs).toBe(1050);
  });
});
