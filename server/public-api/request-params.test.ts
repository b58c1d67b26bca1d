import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { fieldsToParams } from './request-params';

const asQs = (fields: Record<string, string>) =>
  JSON.parse(JSON.stringify(qs.parse(fields, { allowPrototypes: false, plainObjects: true })));

describe('fieldsToParams', () => {
  const plain: [string, string][] = [
    ['client_id', '7'],
    ['', 'nameless'],
    ['__proto__', 'x'],
    ['constructor', 'c'],
    ['a.b', 'dotted'],
    ['a]', 'half a bracket'],
  ];

  it('gives a plain field its value, and drops an empty name and __proto__, as qs does', () => {
    const params = fieldsToParams(plain);
    // No member of Object's prototype is reachable: a name like toString is nobody's parameter.
    expect(params.toString).toBeUndefined();
    expect('hasOwnProperty' in params).toBe(false);
    expect(Object.keys(params)).toEqual(['client_id', 'constructor', 'a.b', 'a]']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    for (const [name, value] of plain)
      expect([name, JSON.parse(JSON.stringify(fieldsToParams([[name, value]])))]).toEqual([
        name,
        asQs({ [name]: value }),
      ]);
  });

  it('still takes repeated names as lists and brackets as nesting', () => {
    const params = fieldsToParams([
      ['tag', 'a'],
      ['tag', 'b'],
      ['variables[note]', 'n'],
      ['buttons[]', 'yes'],
      ['buttons[]', 'no'],
      ['order', '1'],
      ['order[x]', '2'],
    ]);
    expect(JSON.parse(JSON.stringify(params))).toEqual({
      tag: ['a', 'b'],
      variables: { note: 'n' },
      buttons: ['yes', 'no'],
      order: asQs({ order: '1', 'order[x]': '2' }).order,
    });
  });
});
