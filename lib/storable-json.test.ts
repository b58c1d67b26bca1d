import { expect, it } from 'vitest';
import { storableJson, wellFormed } from './storable-json';

it('writes plain JSON when every string is well formed', () => {
  const value = { text: 'Hi 😀', list: [1, null, 'a\\ud800'] };
  expect(storableJson(value)).toBe(JSON.stringify(value));
});

it('replaces a lone surrogate in a string at any depth with U+FFFD', () => {
  const half = '😀'.slice(0, 1);
  expect(JSON.parse(storableJson({ a: [{ text: `x${half}y` }], b: '😀' }))).toEqual({
    a: [{ text: 'x\uFFFDy' }],
    b: '😀',
  });
  expect(JSON.parse(storableJson(['😀'.slice(1)]))).toEqual(['\uFFFD']);
});

it('replaces a lone surrogate in an object key too', () => {
  expect(JSON.parse(storableJson({ 'a\ud83d': 'b' }))).toEqual({ 'a\uFFFD': 'b' });
});

it('wellFormed keeps a value with no lone surrogate as it is, and copies only what it changes', () => {
  const clean = { text: 'Hi 😀', list: [1, null, { a: 'b' }], at: new Date(0) };
  expect(wellFormed(clean)).toBe(clean);
  const kept = { a: 'b' };
  const fixed = wellFormed({ kept, list: ['x', '\udc00'], 'k\ud83d': 1 });
  expect(fixed).toEqual({ kept: { a: 'b' }, list: ['x', '\uFFFD'], 'k\uFFFD': 1 });
  expect(fixed.kept).toBe(kept);
});

it('wellFormed keeps every other key of an object it copies, in order', () => {
  const fixed = wellFormed({ a: 1, b: 'x\ud83d', c: { d: 2 }, e: 'y' });
  expect(Object.entries(fixed)).toEqual([
    ['a', 1],
    ['b', 'x\uFFFD'],
    ['c', { d: 2 }],
    ['e', 'y'],
  ]);
});
