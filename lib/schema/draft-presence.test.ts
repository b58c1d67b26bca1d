import { describe, expect, it } from 'vitest';
import { initialOf, livePresences, PRESENCE_TTL_MS, type Presence } from './draft-presence';

const presence = (tab: string, memberId: number, over: Partial<Presence> = {}): Presence => ({
  tab,
  memberId,
  name: `member ${memberId}`,
  selection: [],
  pointer: null,
  left: false,
  ...over,
});

describe('presence', () => {
  it('keeps the tabs heard from within the TTL that did not leave, in member order', () => {
    const now = 1_000_000;
    const seen = new Map([
      ['b', { presence: presence('b', 2), at: now - 1_000 }],
      ['a', { presence: presence('a', 1), at: now - 1_000 }],
      ['gone', { presence: presence('gone', 3, { left: true }), at: now }],
      ['quiet', { presence: presence('quiet', 4), at: now - PRESENCE_TTL_MS }],
    ]);
    expect(livePresences(seen, now).map((p) => p.tab)).toEqual(['a', 'b']);
  });

  it("draws a name's initial, or a question mark for none", () => {
    expect(initialOf(' ada')).toBe('A');
    expect(initialOf('')).toBe('?');
  });
});
