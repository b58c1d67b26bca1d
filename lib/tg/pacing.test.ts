import { describe, expect, it } from 'vitest';
import { emptyPacing, nextSendAt, recordRetryAfter, recordSend, schedule } from './pacing';

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

describe('pacing sends to the tg messenger', () => {
  it('lets 30 messages a second go per bot, the 31st a second after the first', () => {
    const chats = Array.from({ length: 31 }, (_, i) => 1000 + i);
    const { times } = schedule(emptyPacing(), chats, 5_000);
    expect(times.slice(0, 30)).toEqual(Array(30).fill(5_000));
    expect(times[30]).toBe(6_000);
  });

  it('spaces messages to one private chat a second apart', () => {
    let state = emptyPacing();
    expect(nextSendAt(state, 42, 0)).toBe(0);
    state = recordSend(state, 42, 0);
    expect(nextSendAt(state, 42, 10)).toBe(1_000);
    expect(nextSendAt(state, 43, 10)).toBe(10);
    expect(schedule(emptyPacing(), [42, 42, 42], 0).times).toEqual([0, 1_000, 2_000]);
  });

  it('lets 20 messages a minute go to a group', () => {
    const { times } = schedule(emptyPacing(), Array(21).fill(-100200), 0);
    expect(times.slice(0, 20)).toEqual(Array(20).fill(0));
    expect(times[20]).toBe(60_000);
  });

  it('pauses the whole bot for a retry_after, or only the chat when told so', () => {
    let state = recordSend(emptyPacing(), 1, 0);
    state = recordRetryAfter(state, { retryAfterSeconds: 5, chatId: 1 }, 100);
    expect(nextSendAt(state, 2, 100)).toBe(5_100);
    expect(nextSendAt(state, 1, 100)).toBe(5_100);

    let chatOnly = recordRetryAfter(emptyPacing(), { retryAfterSeconds: 3, chatId: 7, scope: 'chat' }, 0);
    expect(nextSendAt(chatOnly, 7, 0)).toBe(3_000);
    expect(nextSendAt(chatOnly, 8, 0)).toBe(0);
    // A later send to another chat does not forget the pause.
    chatOnly = recordSend(chatOnly, 8, 2_000);
    expect(nextSendAt(chatOnly, 7, 2_000)).toBe(3_000);
    expect(() => recordRetryAfter(emptyPacing(), { retryAfterSeconds: 3, scope: 'chat' }, 0)).toThrow(
      /chatId/,
    );
  });

  it('keeps earlier states unchanged', () => {
    const before = emptyPacing();
    recordSend(before, 1, 0);
    recordRetryAfter(before, { retryAfterSeconds: 9 }, 0);
    expect(before).toEqual(emptyPacing());
  });

  it('schedules a 10,000-recipient broadcast in about 10,000 / 30 seconds, never over a limit, in little memory', () => {
    const chats = Array.from({ length: 10_000 }, (_, i) => 500_000 + i);
    const { times, state } = schedule(emptyPacing(), chats, 0);
    expect(times.at(-1)).toBe(Math.floor(9_999 / 30) * 1_000);
    expect(busiestWindow(times, 1_000)).toBe(30);
    expect(state.chats.size).toBeLessThanOrEqual(30);
  });

  it('mixes private chats and groups without breaking either limit', () => {
    const chats = Array.from({ length: 600 }, (_, i) => (i % 3 === 0 ? -(i % 4) - 1 : 1 + (i % 50)));
    const { times } = schedule(emptyPacing(), chats, 0);
    expect(busiestWindow(times, 1_000)).toBeLessThanOrEqual(30);
    for (const chat of new Set(chats)) {
      const own = times.filter((_, i) => chats[i] === chat);
      if (chat < 0) expect(busiestWindow(own, 60_000)).toBeLessThanOrEqual(20);
      else expect(busiestWindow(own, 1_000)).toBe(1);
    }
  });
});
