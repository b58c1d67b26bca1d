import { describe, expect, it } from 'vitest';
import { replaceNul } from './storable-reply';

describe('replaceNul', () => {
  it('replaces raw and JSON-escaped NULs with U+FFFD', () => {
    expect(replaceNul('a\0b\0')).toEqual({ text: 'a\uFFFDb\uFFFD', replaced: true });
    const json = replaceNul(JSON.stringify({ 'k\0': 'a\0b' }));
    expect(json.replaced).toBe(true);
    expect(JSON.parse(json.text)).toEqual({ 'k\uFFFD': 'a\uFFFDb' });
  });

  it('leaves an escaped backslash before u0000, and text without NULs, as they are', () => {
    const text = JSON.stringify({ path: 'C:\\u0000' });
    expect(replaceNul(text)).toEqual({ text, replaced: false });
    expect(JSON.parse(replaceNul(JSON.stringify('\\\0')).text)).toBe('\\\uFFFD');
    expect(replaceNul('plain')).toEqual({ text: 'plain', replaced: false });
  });

  it('replaces half an emoji JSON spells as an escape, keeps whole pairs, without calling it a NUL', () => {
    const text = '{"a":"x\\ud83d","b":"\\ude00y","c":"\\ud83d\\ude00","d":"C:\\\\ud83d"}';
    const fixed = replaceNul(text);
    expect(fixed.replaced).toBe(false);
    expect(JSON.parse(fixed.text)).toEqual({ a: 'x\uFFFD', b: '\uFFFDy', c: '😀', d: 'C:\\ud83d' });
  });
});
