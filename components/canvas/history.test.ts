import { describe, expect, it } from 'vitest';
import {
  canRedo,
  canUndo,
  createHistory,
  pushHistory,
  rebaseHistory,
  redoHistory,
  undoHistory,
} from './history';

describe('history of schema snapshots', () => {
  it('undoes and redoes in order', () => {
    let h = createHistory('a');
    h = pushHistory(h, 'b', { now: 0 });
    h = pushHistory(h, 'c', { now: 10_000 });
    expect(canUndo(h)).toBe(true);
    expect(canRedo(h)).toBe(false);
    h = undoHistory(h);
    expect(h.present).toBe('b');
    h = undoHistory(h);
    expect(h.present).toBe('a');
    expect(canUndo(h)).toBe(false);
    expect(undoHistory(h)).toBe(h);
    h = redoHistory(h);
    h = redoHistory(h);
    expect(h.present).toBe('c');
    expect(redoHistory(h)).toBe(h);
  });

  it('a new change after undo drops the redo steps', () => {
    let h = pushHistory(pushHistory(createHistory(1), 2, { now: 0 }), 3, { now: 5000 });
    h = undoHistory(h);
    h = pushHistory(h, 4, { now: 9000 });
    expect(h.present).toBe(4);
    expect(canRedo(h)).toBe(false);
    expect(undoHistory(h).present).toBe(2);
  });

  it('coalesces typing in one field into one step, but not across fields or pauses', () => {
    let h = createHistory('');
    h = pushHistory(h, 'H', { key: 'block:1:text', now: 0 });
    h = pushHistory(h, 'He', { key: 'block:1:text', now: 300 });
    h = pushHistory(h, 'Hel', { key: 'block:1:text', now: 600 });
    expect(h.past).toEqual(['']);
    h = pushHistory(h, 'Hel!', { key: 'block:1:name', now: 700 });
    expect(h.past).toEqual(['', 'Hel']);
    h = pushHistory(h, 'Hel!?', { key: 'block:1:name', now: 5000 });
    expect(h.past).toEqual(['', 'Hel', 'Hel!']);
    // After an undo, the next edit is a new step even with the same key.
    h = undoHistory(h);
    h = pushHistory(h, 'x', { key: 'block:1:name', now: 5100 });
    expect(h.past).toEqual(['', 'Hel', 'Hel!']);
  });

  it('keeps at most `limit` steps and ignores a push of the present', () => {
    let h = createHistory(0);
    for (let i = 1; i <= 10; i++) h = pushHistory(h, i, { limit: 3, now: i * 10_000 });
    expect(h.past).toEqual([7, 8, 9]);
    expect(pushHistory(h, h.present)).toBe(h);
  });

  it("keeps a colleague's change through one's own undo and redo (each step rebased)", () => {
    let h = createHistory<string[]>([]);
    h = pushHistory(h, ['mine 1'], { now: 0 });
    h = pushHistory(h, ['mine 1', 'mine 2'], { now: 10_000 });
    h = undoHistory(h);
    h = rebaseHistory(h, (step) => [...step, 'theirs']);
    expect(h.present).toEqual(['mine 1', 'theirs']);
    h = redoHistory(h);
    expect(h.present).toEqual(['mine 1', 'mine 2', 'theirs']);
    h = undoHistory(h);
    h = undoHistory(h);
    expect(h.present).toEqual(['theirs']);
  });
});
