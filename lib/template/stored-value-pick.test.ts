import { describe, expect, it } from 'vitest';
import { appendStoredValue, variableForPath } from './stored-value-pick';
import { extractStoredValues, parseStoredValues, suggestStoredValuePaths } from './stored-values';

describe('picking stored-value paths from a test reply', () => {
  it('names the variable after the last key that is not an index', () => {
    expect(variableForPath('data|items|0|price', '')).toBe('price');
    expect(variableForPath('tags|0', '')).toBe('tags_0');
    expect(variableForPath('0|1', '')).toBe('value_0_1');
    expect(variableForPath('user.name', '')).toBe('user_name');
    expect(variableForPath('1st place', '')).toBe('value_1st_place');
    expect(variableForPath('цена', '')).toBe('value');
  });

  it('numbers the name when the stored values already write that variable', () => {
    expect(variableForPath('a|price', 'x->price; y->price_2')).toBe('price_3');
    expect(variableForPath('a|price', 'x->cost')).toBe('price');
  });

  it('appends path->variable as a new phrase', () => {
    expect(appendStoredValue('', 'data|id', 'id')).toBe('data|id->id');
    expect(appendStoredValue('a->b', 'data|id', 'id')).toBe('a->b; data|id->id');
    expect(appendStoredValue('a->b;  ', 'data|id', 'id')).toBe('a->b; data|id->id');
  });

  it('every suggested path of a reply, picked, parses and extracts its value', () => {
    const reply = { data: { items: [{ name: 'Pizza', price: 42 }] }, ok: true, 'a.b': null };
    let stored = '';
    for (const path of suggestStoredValuePaths(reply)) {
      stored = appendStoredValue(stored, path, variableForPath(path, stored));
    }
    expect(stored).toBe('data|items|0|name->name; data|items|0|price->price; ok->ok; a.b->a_b');
    const { phrases, errors } = parseStoredValues(stored);
    expect(errors).toEqual([]);
    expect(extractStoredValues(phrases, reply).values).toEqual([
      { variable: 'name', value: 'Pizza' },
      { variable: 'price', value: 42 },
      { variable: 'ok', value: true },
      { variable: 'a_b', value: null },
    ]);
  });
});
