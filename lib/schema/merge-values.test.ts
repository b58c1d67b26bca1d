import { describe, expect, it } from 'vitest';
import { mergeText, mergeValues, shiftOffset, textEdits } from './merge-values';

describe('a text two designers changed at once', () => {
  it('keeps both where they typed in different places, character by character', () => {
    expect(mergeText('price * 2', 'price * 2 + tax', 'round(price) * 2')).toBe('round(price) * 2 + tax');
    expect(mergeText('Hello, world', 'Hello, dear world', 'Hi, world!')).toBe('Hi, dear world!');
  });

  it('keeps both insertions at one point, theirs first (it was stored first)', () => {
    expect(mergeText('a + b', 'a + b + c', 'a + b + d')).toBe('a + b + d + c');
  });

  it('keeps a deletion of one and an insertion of the other beside it', () => {
    expect(mergeText('one two three', 'one three', 'one two three four')).toBe('one three four');
    expect(mergeText('abc', 'ac', 'abXc')).toBe('aXc');
  });

  it('takes an edit made by both once', () => {
    expect(mergeText('teh cat sat', 'the cat sat', 'the cat sat down')).toBe('the cat sat down');
  });

  it('does not merge where both changed the same characters differently', () => {
    expect(mergeText('total = 10', 'total = 20', 'total = 30')).toBeNull();
    // One deleted a word the other typed inside of.
    expect(mergeText('one two three', 'one three', 'one twenty three')).toBeNull();
  });

  it('stays quick on long unrelated texts (the diff settles for a coarser answer)', () => {
    const text = (seed: number) =>
      Array.from({ length: 20_000 }, (_, i) => 'abcdefgh '[(i * seed + (i >> 3)) % 9]).join('');
    // Both rewrote nearly everything: a conflict, found without the seconds an exact diff takes.
    expect(mergeText(text(1), text(7), text(5))).toBeNull();
  });
});

describe('a field two designers changed at once', () => {
  it('merges an object key by key and texts within it', () => {
    const base = { url: 'https://a.example/x', headers: '', params: 'a=1' };
    expect(
      mergeValues(
        base,
        { ...base, url: 'https://a.example/y', params: 'a=1&b=2' },
        { ...base, headers: 'X-Key: 1', params: 'c=0&a=1' },
      ),
    ).toEqual({
      ok: true,
      value: { url: 'https://a.example/y', headers: 'X-Key: 1', params: 'c=0&a=1&b=2' },
    });
  });

  it('merges a list of the same length item by item, and not one whose length both changed', () => {
    const base = [{ text: 'Yes' }, { text: 'No' }];
    expect(mergeValues(base, [{ text: 'Yes!' }, base[1]], [base[0], { text: 'No.' }])).toEqual({
      ok: true,
      value: [{ text: 'Yes!' }, { text: 'No.' }],
    });
    expect(mergeValues(base, [...base, { text: 'Maybe' }], [base[0]]).ok).toBe(false);
    // Only one changed the length: theirs.
    expect(mergeValues(base, base, [base[0]])).toEqual({ ok: true, value: [base[0]] });
  });

  it('takes a removed value (null) where only one side changed it, and refuses a change against a removal', () => {
    expect(mergeValues('x', null, 'x')).toEqual({ ok: true, value: null });
    expect(mergeValues('x', 'xy', null).ok).toBe(false);
  });

  it('does not merge a value that is one (a position) both changed', () => {
    expect(mergeValues({ x: 1, y: 1 }, { x: 5, y: 1 }, { x: 1, y: 9 }, true).ok).toBe(false);
    expect(mergeValues({ x: 1, y: 1 }, { x: 5, y: 1 }, { x: 1, y: 1 }, true)).toEqual({
      ok: true,
      value: { x: 5, y: 1 },
    });
  });
});

describe("one's cursor in a text someone else changed", () => {
  it('moves with what was inserted or removed before it, and stays before an insertion at it', () => {
    const base = 'Hello world';
    const edits = textEdits(base, 'Oh, hello there world!');
    // After "Hello w": "Oh, h" replaced "H" and "there " was inserted before "world".
    expect(shiftOffset(edits, 7)).toBe('Oh, hello there w'.length);
    // At "world" itself: the insertion there goes after the cursor.
    expect(shiftOffset(edits, 6)).toBe('Oh, hello '.length);
    expect(shiftOffset(edits, base.length)).toBe('Oh, hello there world'.length);
    // Inside a replaced stretch: just after the replacement.
    expect(shiftOffset(textEdits('total = 10', 'total = 25'), 9)).toBe('total = 25'.length);
  });
});
