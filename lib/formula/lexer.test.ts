import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from './lexer';

const pieces = fc.constantFrom(
  ...'()[]{}+-*/%=<>!&|^,:\'"\\ \t\r\n.abcxé_19eE\u00aa\u0660\u2003'.split(''),
  'and',
  '/*',
  '*/',
  '**',
  '||',
  'True',
  '1e+',
  '.5',
  "'a\\'b'",
  '"x\\ny"',
  'x.y.',
  '\ud835\udc00',
);

describe('the lexer', () => {
  it('covers the source: each token is its own text at its own line and column, with only blanks between', () => {
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 60 }).map((p) => p.join('')),
        (source) => {
          const tokens = tokenize(source);
          let at = 0;
          for (const t of tokens) {
            expect(source.slice(at, t.offset)).toMatch(/^[ \t\r]*$/);
            expect(source.slice(t.offset, t.end)).toBe(t.text);
            const before = source.slice(0, t.offset).split('\n');
            expect([t.line, t.column]).toEqual([before.length, before.at(-1)!.length + 1]);
            at = t.end;
          }
          expect(tokens.at(-1)).toMatchObject({ kind: 'eof', offset: source.length });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads numbers, names, keywords, texts with escapes, operators and comments', () => {
    const tokens = tokenize("x.y. = 1.5e+3 ** 2 AND 'a\\'b\\n' /* c\nd */ <= é_1");
    expect(tokens.map((t) => [t.kind, t.text, t.value])).toEqual([
      ['name', 'x.y', undefined],
      ['error', '.', undefined],
      ['operator', '=', undefined],
      ['number', '1.5e+3', undefined],
      ['operator', '**', undefined],
      ['number', '2', undefined],
      ['keyword', 'AND', undefined],
      ['string', "'a\\'b\\n'", "a'b\n"],
      ['comment', '/* c\nd */', undefined],
      ['operator', '<=', undefined],
      ['name', 'é_1', undefined],
      ['eof', '', undefined],
    ]);
  });

  it('counts a line break escaped inside a text, so later tokens keep their lines', () => {
    expect(tokenize("x = 'a\\\nb' + 1").map((t) => [t.kind, t.line, t.column])).toEqual([
      ['name', 1, 1],
      ['operator', 1, 3],
      ['string', 1, 5],
      ['operator', 2, 4],
      ['number', 2, 6],
      ['eof', 2, 7],
    ]);
  });

  it('makes a malformed number one error token saying what is wrong, never a number that is not one', () => {
    for (const [text, message] of [
      ['1e+', "'1e+' is not a number: the exponent needs digits, like 1e+3"],
      ['2.5E-', "'2.5E-' is not a number: the exponent needs digits, like 1e+3"],
      ['3e', "'3e' is not a number: the exponent needs digits, like 1e+3"],
      ['1.', "'1.' is not a number: write digits after the dot, like 1.0"],
      ['1.2.3', "'1.2.3' is not a number: a number has one dot"],
      ['12abc', "'12abc' is not a number: a name cannot start with a digit"],
      ['1e999', "'1e999' is too large for a number"],
    ]) {
      const tokens = tokenize(`x = ${text} + 1`);
      expect(
        tokens.map((t) => [t.kind, t.text]),
        text,
      ).toEqual([
        ['name', 'x'],
        ['operator', '='],
        ['error', text],
        ['operator', '+'],
        ['number', '1'],
        ['eof', ''],
      ]);
      expect(tokens[2].message).toBe(message);
    }
    expect(tokenize('1e3 .5 7E-2 1.5e+3').map((t) => t.kind)).toEqual([
      'number',
      'number',
      'number',
      'number',
      'eof',
    ]);
  });
});
