import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractStoredValues, parseStoredValues, suggestStoredValuePaths } from './stored-values';

describe('parseStoredValues', () => {
  it('parses phrases with paths, positions and trimmed parts', () => {
    const text = 'data|items|0|price->price; status -> client.status ;';
    expect(parseStoredValues(text)).toEqual({
      phrases: [
        { path: ['data', 'items', '0', 'price'], variable: 'price', start: 0, end: 25 },
        { path: ['status'], variable: 'client.status', start: 27, end: 50 },
      ],
      errors: [],
    });
  });

  it('trims spaces around keys', () => {
    expect(parseStoredValues(' a | b |0 ->x').phrases[0].path).toEqual(['a', 'b', '0']);
  });

  it('accepts an empty text, empty phrases and a trailing ;', () => {
    expect(parseStoredValues('')).toEqual({ phrases: [], errors: [] });
    expect(parseStoredValues(' ; ;')).toEqual({ phrases: [], errors: [] });
    expect(parseStoredValues('a->b;;c->d;').phrases.map((p) => p.variable)).toEqual(['b', 'd']);
  });

  it('reports bad phrases with positions and keeps the good ones', () => {
    const text = 'ok->a; nope; x->y->z; ->v; a||b->w; p-> ; q->1bad; r|->s';
    const { phrases, errors } = parseStoredValues(text);
    expect(phrases.map((p) => p.variable)).toEqual(['a']);
    const at = (phraseIndex: number) => errors.filter((e) => e.phraseIndex === phraseIndex);
    expect(at(1)).toEqual([
      { message: expect.stringContaining("no '->'"), start: 7, end: 11, phraseIndex: 1 },
    ]);
    expect(at(2)).toEqual([
      { message: expect.stringContaining("more than one '->'"), start: 17, end: 19, phraseIndex: 2 },
    ]);
    expect(at(3)).toEqual([{ message: "Missing path before '->'", start: 22, end: 24, phraseIndex: 3 }]);
    expect(at(4)[0]).toMatchObject({ message: expect.stringContaining('Empty key'), phraseIndex: 4 });
    expect(text.slice(at(4)[0].start, at(4)[0].end)).toBe('|');
    expect(at(5)).toEqual([
      { message: "Missing variable name after '->'", start: 37, end: 39, phraseIndex: 5 },
    ]);
    expect(at(6)[0].message).toContain('"1bad" is not a variable name');
    expect(text.slice(at(6)[0].start, at(6)[0].end)).toBe('1bad');
    expect(at(7)[0].message).toContain('Empty key in the path (key 2)');
  });

  it('reports several problems of one phrase', () => {
    // `a||` has two empty keys, and the variable is missing.
    expect(parseStoredValues('a||->').errors.map((e) => e.message)).toEqual([
      expect.stringContaining('(key 2)'),
      expect.stringContaining('(key 3)'),
      "Missing variable name after '->'",
    ]);
  });

  it('does not split on separators inside #{...}', () => {
    const { phrases, errors } = parseStoredValues("items|#{if(a, 'x;y|z', 'w')}|name->v#{i}; b->c");
    expect(errors).toEqual([]);
    expect(phrases).toMatchObject([
      { path: ['items', "#{if(a, 'x;y|z', 'w')}", 'name'], variable: 'v#{i}' },
      { path: ['b'], variable: 'c' },
    ]);
  });

  it('never throws on random input and positions stay in range', () => {
    const piece = fc.constantFrom(';', '|', '->', '-', '>', ' ', 'a', '0', '#{', '}', '.', '1');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(piece, { maxLength: 30 }).map((a) => a.join('')),
        ),
        (text) => {
          const { phrases, errors } = parseStoredValues(text);
          for (const p of [...phrases, ...errors]) {
            expect(p.start).toBeGreaterThanOrEqual(0);
            expect(p.end).toBeLessThanOrEqual(text.length);
            expect(p.start).toBeLessThanOrEqual(p.end);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('extractStoredValues', () => {
  const reply = {
    data: { items: [{ price: 10 }, { price: 20 }, { price: 30 }], meta: { tags: ['a'] } },
    status: 'ok',
    '0': 'zero key',
    nothing: null,
  };
  const extract = (text: string, json: unknown = reply) =>
    extractStoredValues(parseStoredValues(text).phrases, json);

  it('extracts values by path, with array indexes from 0', () => {
    expect(extract('data|items|1|price->p; status->s; data|meta->m; nothing->n')).toEqual({
      values: [
        { variable: 'p', value: 20 },
        { variable: 's', value: 'ok' },
        { variable: 'm', value: { tags: ['a'] } },
        { variable: 'n', value: null },
      ],
      errors: [],
    });
  });

  it('uses a digit key as an object key when the node is an object', () => {
    expect(extract('0->z').values).toEqual([{ variable: 'z', value: 'zero key' }]);
    expect(extract('0->z', ['first']).values).toEqual([{ variable: 'z', value: 'first' }]);
  });

  it('reports each missing path clearly and still extracts the others', () => {
    const r = extract(
      'data|items|5|price->a; status->b; data|nope->c; status|x->d; data|items|x->e; data|items|-1->f',
    );
    expect(r.values).toEqual([{ variable: 'b', value: 'ok' }]);
    expect(r.errors).toEqual([
      { phraseIndex: 0, variable: 'a', message: "'data|items|5' not found: the array has 3 elements" },
      { phraseIndex: 2, variable: 'c', message: `'data|nope' not found: 'data' has no key "nope"` },
      {
        phraseIndex: 3,
        variable: 'd',
        message: "'status|x' not found: 'status' is a string, not an object or array",
      },
      {
        phraseIndex: 4,
        variable: 'e',
        message: "'data|items|x' not found: 'data|items' is an array: address its elements by index from 0",
      },
      {
        phraseIndex: 5,
        variable: 'f',
        message: "'data|items|-1' not found: 'data|items' is an array: address its elements by index from 0",
      },
    ]);
  });

  it('names the reply itself when the first key fails', () => {
    expect(extract('a->x', 'plain text').errors[0].message).toBe(
      "'a' not found: the reply is a string, not an object or array",
    );
    expect(extract('a->x', null).errors[0].message).toContain('the reply is null');
    expect(extract('0->x', []).errors[0].message).toBe("'0' not found: the array has 0 elements");
    expect(extract('0->x', [[]]).values).toEqual([{ variable: 'x', value: [] }]);
  });

  it('treats __proto__, constructor and toString as ordinary keys', () => {
    const json = JSON.parse('{"__proto__": {"x": 1}, "constructor": 2}');
    expect(extract('__proto__|x->a; constructor->b', json).values).toEqual([
      { variable: 'a', value: 1 },
      { variable: 'b', value: 2 },
    ]);
    const missing = extract('constructor->a; __proto__->b; toString->c; data|hasOwnProperty->d', reply);
    expect(missing.values).toEqual([]);
    expect(missing.errors).toHaveLength(4);
    expect(extract('length->n', ['a']).errors[0].message).toContain('is an array');
  });

  it('reads Maps by key', () => {
    expect(extract('a|b->x', new Map([['a', new Map([['b', 3]])]])).values).toEqual([
      { variable: 'x', value: 3 },
    ]);
  });
});

describe('suggestStoredValuePaths', () => {
  it('lists leaf paths in document order', () => {
    expect(
      suggestStoredValuePaths({ data: { items: [{ price: 1, name: 'x' }] }, ok: true, n: null }),
    ).toEqual(['data|items|0|price', 'data|items|0|name', 'ok', 'n']);
  });

  it('stops at max', () => {
    expect(suggestStoredValuePaths({ list: Array.from({ length: 1000 }, (_, i) => i) }, 3)).toEqual([
      'list|0',
      'list|1',
      'list|2',
    ]);
  });

  it('skips keys the syntax cannot express and includes __proto__ as data', () => {
    const json = JSON.parse(
      '{"a|b": 1, "c;d": 2, "e->f": 3, "": 4, " g": 5, "#{h}": 6, "__proto__": {"x": 7}}',
    );
    expect(suggestStoredValuePaths(json)).toEqual(['__proto__|x']);
  });

  it('returns nothing for a scalar reply', () => {
    expect(suggestStoredValuePaths('text')).toEqual([]);
  });

  it('round-trips: every suggestion extracts without error', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        const paths = suggestStoredValuePaths(json, 50);
        const text = paths.map((p, i) => `${p}->v${i}`).join('; ');
        const parsed = parseStoredValues(text);
        expect(parsed.errors).toEqual([]);
        expect(extractStoredValues(parsed.phrases, json).errors).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
