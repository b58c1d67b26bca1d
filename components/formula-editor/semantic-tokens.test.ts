import { describe, expect, it } from 'vitest';
import { semanticTokenData, TOKEN_TYPES } from './semantic-tokens';

/** Decodes Monaco's relative encoding back to [line, char, length, type] for readable assertions. */
function decode(data: Uint32Array) {
  const out: [number, number, number, string][] = [];
  let line = 0;
  let char = 0;
  for (let i = 0; i < data.length; i += 5) {
    line += data[i];
    char = data[i] === 0 ? char + data[i + 1] : data[i + 1];
    out.push([line, char, data[i + 2], TOKEN_TYPES[data[i + 3]]]);
  }
  return out;
}

describe('semantic tokens of a formula', () => {
  it('encodes tokens relative to the one before, across lines', () => {
    expect(decode(semanticTokenData("x = len('a')\n  y = 2"))).toEqual([
      [0, 0, 1, 'variable'],
      [0, 2, 1, 'operator'],
      [0, 4, 3, 'function'],
      [0, 8, 3, 'string'],
      [1, 2, 1, 'variable'],
      [1, 4, 1, 'operator'],
      [1, 6, 1, 'number'],
    ]);
  });

  it('splits a comment over several lines into one token per line', () => {
    expect(decode(semanticTokenData('a = 1 /* one\ntwo\n*/ b'))).toEqual([
      [0, 0, 1, 'variable'],
      [0, 2, 1, 'operator'],
      [0, 4, 1, 'number'],
      [0, 6, 6, 'comment'],
      [1, 0, 3, 'comment'],
      [2, 0, 2, 'comment'],
      [2, 3, 1, 'variable'],
    ]);
  });
});
