import { expect, it } from 'vitest';
import { storableJson } from './storable-json';

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
