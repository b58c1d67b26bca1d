import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from './json-check';
import { checkJsonTemplate, lineAndColumn, renderJsonTemplate } from './json-template';
import type { TemplateContext } from './render';

const vars = (values: Record<string, string>): TemplateContext => ({
  lookup: (name) => (Object.hasOwn(values, name) ? values[name] : undefined),
});

describe('findJsonSyntaxError', () => {
  it('accepts what JSON.parse accepts', () => {
    for (const text of [
      '{}',
      '[]',
      ' 1 ',
      '-0.5e+3',
      '"a\\u00e9\\n"',
      '{"a":[1,{"b":null}],"c":true}',
      'false',
    ]) {
      expect(findJsonSyntaxError(text)).toBeNull();
    }
  });

  it('points at the offending character', () => {
    expect(findJsonSyntaxError('{"a": }')).toEqual({ message: 'Unexpected character "}"', offset: 6 });
    expect(findJsonSyntaxError('{"a": 1,}')).toEqual({ message: 'Expected a "quoted" key', offset: 8 });
    expect(findJsonSyntaxError('{a: 1}')?.offset).toBe(1);
    expect(findJsonSyntaxError('[1 2]')).toEqual({ message: "Expected ',' or ']'", offset: 3 });
    expect(findJsonSyntaxError('"abc')).toEqual({ message: 'Unterminated JSON string', offset: 0 });
    expect(findJsonSyntaxError('"a\nb"')?.offset).toBe(2);
    expect(findJsonSyntaxError('{"a": 1')).toEqual({ message: 'Unexpected end of JSON', offset: 7 });
    expect(findJsonSyntaxError('')).toEqual({ message: 'Unexpected end of JSON', offset: 0 });
    expect(findJsonSyntaxError('1 2')).toEqual({
      message: 'Unexpected text after the JSON value',
      offset: 2,
    });
    expect(findJsonSyntaxError('01')?.offset).toBe(1);
    expect(findJsonSyntaxError('"\\x"')?.offset).toBe(1);
  });

  it('caps nesting instead of overflowing the stack', () => {
    expect(findJsonSyntaxError('['.repeat(100_000))?.message).toContain('nested deeper');
  });

  it('agrees with JSON.parse on random JSON-ish text', () => {
    const piece = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"',
      '"a"',
      '1',
      '-',
      '.5',
      'e3',
      'true',
      'nul',
      ' ',
      '\\',
      '\n',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.json(),
          fc.array(piece, { maxLength: 12 }).map((a) => a.join('')),
        ),
        (text) => {
          let parses = true;
          try {
            JSON.parse(text);
          } catch {
            parses = false;
          }
          expect(findJsonSyntaxError(text) === null).toBe(parses);
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

describe('renderJsonTemplate', () => {
  it('returns the parsed value and text', () => {
    const r = renderJsonTemplate('{"name": "#{name}", "age": #{age}}', vars({ name: 'Ann "A"', age: '30' }));
    expect(r).toEqual({
      ok: true,
      value: { name: 'Ann "A"', age: 30 },
      text: '{"name": "Ann \\"A\\"", "age": 30}',
      warnings: [],
    });
  });

  it('reports a template error with its position in the template, line and column', () => {
    const template = '{\n  "a": "#{x}",\n  "b": ]\n}';
    const r = renderJsonTemplate(template, vars({ x: 'a long value that shifts offsets' }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.offset).toBe(template.indexOf(']'));
    expect(r.error.line).toBe(3);
    expect(r.error.column).toBe(8);
    expect(r.text[r.error.renderedOffset]).toBe(']');
  });

  it('points at the placeholder when the value itself breaks the JSON', () => {
    // Adjacent bare values: each is valid alone, together they are not.
    const r = renderJsonTemplate('{"a": #{x}#{y}}', vars({ x: '"p"', y: '"q"' }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.offset).toBe(10);
    expect(r.error.message).toContain('value substituted');
  });

  it('strips line breaks from values for headers', () => {
    const r = renderJsonTemplate('{"Authorization": "Bearer #{t}"}', vars({ t: 'x\r\nEvil: 1' }), {
      forHeaders: true,
    });
    expect(r.ok && r.value).toEqual({ Authorization: 'Bearer xEvil: 1' });
  });

  it('keeps __proto__ as an ordinary key', () => {
    const r = renderJsonTemplate('{"__proto__": {"polluted": #{v}}}', vars({ v: '1' }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.hasOwn(r.value as object, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('says when the error comes from the length cap', () => {
    const r = renderJsonTemplate('{"a": "#{x}"}', vars({ x: 'y'.repeat(50) }), { maxLength: 20 });
    expect(!r.ok && r.error.message).toContain('cut at the length limit');
  });
});

describe('checkJsonTemplate', () => {
  it('accepts quoted and bare placeholders', () => {
    expect(checkJsonTemplate('{"a": "#{name}", "n": #{count}, "e": #{2+2}}')).toBeNull();
  });

  it('reports broken structure with a template position', () => {
    expect(checkJsonTemplate('{"a": "#{name}" "b": 1}')).toMatchObject({ offset: 16, line: 1, column: 17 });
  });
});

describe('lineAndColumn', () => {
  it('is 1-based', () => {
    expect(lineAndColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
