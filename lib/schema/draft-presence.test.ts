import { describe, expect, it } from 'vitest';
import {
  initialOf,
  livePresences,
  PRESENCE_TTL_MS,
  type Presence,
  pointersWanted,
  presenceInputSchema,
  presenceNews,
} from './draft-presence';

const presence = (tab: string, memberId: number, over: Partial<Presence> = {}): Presence => ({
  tab,
  memberId,
  name: `member ${memberId}`,
  selection: [],
  pointer: null,
  wantsPointers: false,
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

  it('asks for no pointers when a canvas does not say (one of before pointers were shared)', () => {
    const input = { tab: 'tab-of-ann', selection: [], pointer: null };
    expect(presenceInputSchema.parse(input)).toEqual({ ...input, wantsPointers: false, left: false });
    expect(presenceInputSchema.parse({ ...input, wantsPointers: true }).wantsPointers).toBe(true);
    expect(presenceInputSchema.safeParse({ ...input, wantsPointers: 'yes' }).success).toBe(false);
  });

  it('wants pointers shared while anyone present asks for them', () => {
    expect(pointersWanted([presence('a', 1), presence('b', 2)])).toBe(false);
    expect(pointersWanted([presence('a', 1), presence('b', 2, { wantsPointers: true })])).toBe(true);
  });

  it('keeps a presence again for a change besides its pointer, or once a while', () => {
    const now = 1_000_000;
    const before = { presence: presence('a', 1, { pointer: { x: 1, y: 2 } }), at: now - 1_000 };
    const moved = presence('a', 1, { pointer: { x: 5, y: 6 } });
    expect(presenceNews(undefined, moved, now)).toBe(true);
    expect(presenceNews(before, moved, now)).toBe(false);
    expect(presenceNews(before, { ...moved, selection: [3] }, now)).toBe(true);
    expect(presenceNews(before, { ...moved, wantsPointers: true }, now)).toBe(true);
    expect(presenceNews(before, { ...moved, left: true }, now)).toBe(true);
    expect(presenceNews({ ...before, at: now - 5_000 }, moved, now)).toBe(true);
  });
});
