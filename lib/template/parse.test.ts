import { describe, expect, it } from 'vitest';
import { findPlaceholders, parseTemplate } from './parse';

describe('findPlaceholders', () => {
  it('lists variables, expressions and dynamic names with positions and depth', () => {
    const text = 'Hi #{name}, #{ 2+2 } #{q#{i}} #{client.phone}';
    expect(findPlaceholders(text)).toEqual([
      { kind: 'variable', name: 'name', source: 'name', start: 3, end: 10, depth: 0 },
      { kind: 'expression', expression: '2+2', source: ' 2+2 ', start: 12, end: 20, depth: 0 },
      { kind: 'dynamic', source: 'q#{i}', start: 21, end: 29, depth: 0 },
      { kind: 'variable', name: 'i', source: 'i', start: 24, end: 28, depth: 1 },
      { kind: 'variable', name: 'client.phone', source: 'client.phone', start: 30, end: 45, depth: 0 },
    ]);
    for (const p of findPlaceholders(text)) expect(text.slice(p.start, p.end)).toBe(`#{${p.source}}`);
  });

  it('skips unbalanced #{ but finds balanced placeholders inside it', () => {
    expect(findPlaceholders('#{a #{b}').map((p) => [p.name, p.start, p.depth])).toEqual([['b', 4, 0]]);
  });

  it('treats names that are not plain ASCII identifiers as expressions', () => {
    expect(findPlaceholders('#{1abc}#{a b}#{a-b}').map((p) => p.kind)).toEqual([
      'expression',
      'expression',
      'expression',
    ]);
    expect(findPlaceholders(`#{${'a'.repeat(501)}}`)[0].kind).toBe('expression');
  });

  it('returns nothing for plain text', () => {
    expect(findPlaceholders('no placeholders # { } here')).toEqual([]);
  });
});

describe('parseTemplate', () => {
  it('reports each unclosed #{ and a depth overflow once', () => {
    const { issues } = parseTemplate('#{a #{b', 16);
    expect(issues.map((i) => i.offset)).toEqual([0, 4]);
    const deep = parseTemplate('#{#{#{#{x}}}}', 2);
    expect(deep.issues).toHaveLength(1);
    expect(deep.issues[0].offset).toBe(4);
  });
});
