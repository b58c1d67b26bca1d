import { describe, expect, it } from 'vitest';
import { checkJsonFormat } from './json-format-check';
import { checkJsonTemplate } from './json-template';

describe('checkJsonFormat (the request form format check of JSON parameters)', () => {
  it('accepts JSON whose placeholders stand inside strings, whatever the placeholder holds', () => {
    expect(checkJsonFormat('{"name": "#{name}", "n": 1}')).toBeNull();
    expect(checkJsonFormat(`{"who": "#{replace(name, '"', '')}", "q": "#{q#{i}}"}`)).toBeNull();
    expect(checkJsonFormat('[]')).toBeNull();
  });

  it('refuses a bare placeholder at its position, saying how to send a number', () => {
    const text = '{\n  "count": #{n}\n}';
    expect(checkJsonFormat(text)).toEqual({
      message:
        '#{n} stands outside quotes: write it in quotes to send it as text, or turn off the format check to send a number',
      offset: 13,
      line: 2,
      column: 12,
    });
    // The lenient check lets the same text through: that is what turning the check off allows.
    expect(checkJsonTemplate(text)).toBeNull();
  });

  it('reports broken JSON with the position of the mistake', () => {
    expect(checkJsonFormat('{"a": "#{x}",}')).toMatchObject({
      message: 'Expected a "quoted" key',
      offset: 13,
      line: 1,
      column: 14,
    });
    expect(checkJsonFormat('{"a": "#{x}"')).toMatchObject({ message: 'Unexpected end of JSON', offset: 12 });
    expect(checkJsonFormat('{"a": 1} x')?.message).toBe('Unexpected text after the JSON value');
  });
});
