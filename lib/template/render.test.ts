import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_VALUE_LENGTH } from './limits';
import { renderTemplate, type TemplateContext } from './render';

const vars = (values: Record<string, string>, evaluate?: (e: string) => string): TemplateContext => ({
  lookup: (name) => (Object.hasOwn(values, name) ? values[name] : undefined),
  evaluate,
});

const arithmetic = (expression: string) => {
  const m = /^(\d+)\s*\+\s*(\d+)$/.exec(expression);
  if (!m) throw new Error(`cannot evaluate ${expression}`);
  return String(Number(m[1]) + Number(m[2]));
};

describe('renderTemplate: text mode', () => {
  it('substitutes variables, dotted names included', () => {
    const ctx = vars({ name: 'Ann', 'client.phone': '+1 555', 'project.x': '7' });
    expect(renderTemplate('Hi #{name}, #{client.phone} #{project.x}', ctx)).toEqual({
      text: 'Hi Ann, +1 555 7',
      warnings: [],
      truncated: false,
    });
  });

  it('renders an unknown name as empty text, without a warning', () => {
    expect(renderTemplate('[#{nope}]', vars({}))).toEqual({ text: '[]', warnings: [], truncated: false });
  });

  it('trims spaces around a name', () => {
    expect(renderTemplate('#{ name }', vars({ name: 'Ann' })).text).toBe('Ann');
  });

  it('resolves nesting inner first: #{q#{i}}', () => {
    const ctx = vars({ i: '2', q2: 'second', q1: 'first' });
    expect(renderTemplate('#{q#{i}}', ctx).text).toBe('second');
    expect(renderTemplate('a #{q#{i}} b #{q1}', ctx).text).toBe('a second b first');
  });

  it('nests three deep', () => {
    expect(renderTemplate('#{a#{b#{c}}}', vars({ c: '1', b1: '2', a2: 'x' })).text).toBe('x');
  });

  it('sends expressions to evaluate', () => {
    const ctx = vars({ n: '3' }, arithmetic);
    expect(renderTemplate('#{2+2} and #{ 1 + #{n} }', ctx).text).toBe('4 and 4');
  });

  it('passes the trimmed expression text', () => {
    const seen: string[] = [];
    renderTemplate(
      '#{ random(1,6) }',
      vars({}, (e) => {
        seen.push(e);
        return '5';
      }),
    );
    expect(seen).toEqual(['random(1,6)']);
  });

  it('renders an expression as empty with a warning when evaluate is missing', () => {
    const r = renderTemplate('x #{2+2} y', vars({}));
    expect(r.text).toBe('x  y');
    expect(r.warnings).toEqual([{ message: expect.stringContaining('not available'), offset: 2 }]);
  });

  it('renders a failing expression as empty with a warning naming it', () => {
    const r = renderTemplate('ab#{1/0}', vars({}, arithmetic));
    expect(r.text).toBe('ab');
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0].offset).toBe(2);
    expect(r.warnings[0].message).toContain('1/0');
    expect(r.warnings[0].message).toContain('cannot evaluate');
  });

  it('survives evaluate throwing a non-Error and lookup throwing', () => {
    const ctx: TemplateContext = {
      lookup: () => {
        throw new Error('db down');
      },
      evaluate: () => {
        throw 'boom';
      },
    };
    const r = renderTemplate('#{a}#{1+1}', ctx);
    expect(r.text).toBe('');
    expect(r.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('db down'),
      expect.stringContaining('boom'),
    ]);
  });

  it('coerces non-string results and survives a value whose toString throws', () => {
    const evil = {
      toString() {
        throw new Error('nope');
      },
    };
    const ctx = { lookup: () => 5, evaluate: () => evil } as unknown as TemplateContext;
    const r = renderTemplate('#{a}#{1+1}', ctx);
    expect(r.text).toBe('5');
    expect(r.warnings).toHaveLength(1);
  });

  it('keeps an unbalanced #{ literally, with a warning, and still renders what is balanced', () => {
    const ctx = vars({ a: 'A' });
    expect(renderTemplate('Hello #{', ctx).text).toBe('Hello #{');
    expect(renderTemplate('x #{a', ctx).text).toBe('x #{a');
    const r = renderTemplate('x #{b #{a} y', ctx);
    expect(r.text).toBe('x #{b A y');
    expect(r.warnings).toEqual([{ message: expect.stringContaining('no closing'), offset: 2 }]);
  });

  it('leaves stray braces and lone # alone', () => {
    const ctx = vars({ a: 'A' });
    expect(renderTemplate('{x} # } #{a}} {', ctx).text).toBe('{x} # } A} {');
  });

  it('does not re-substitute values: values are data', () => {
    const ctx = vars({ a: '#{b}', b: 'secret', c: '#{c}#{c}' });
    expect(renderTemplate('#{a}', ctx).text).toBe('#{b}');
    expect(renderTemplate('#{c}#{c}', ctx).text).toBe('#{c}#{c}#{c}#{c}');
  });

  it('a nested value containing #{ becomes part of the outer name, not a new placeholder', () => {
    const seen: string[] = [];
    const ctx: TemplateContext = {
      lookup: (n) => (n === 'i' ? '#{x}' : undefined),
      evaluate: (e) => {
        seen.push(e);
        return 'E';
      },
    };
    expect(renderTemplate('#{q#{i}}', ctx).text).toBe('E');
    expect(seen).toEqual(['q#{x}']);
  });

  it('keeps braces and quotes of an expression inside the placeholder', () => {
    const seen: string[] = [];
    const ctx = vars({}, (e) => {
      seen.push(e);
      return 'ok';
    });
    expect(renderTemplate("#{replace(a, '}', '')}!", ctx).text).toBe('ok!');
    expect(renderTemplate("#{ {'k': 1}['k'] }!", ctx).text).toBe('ok!');
    expect(renderTemplate('#{f("a\\"}")}!', ctx).text).toBe('ok!');
    expect(seen).toEqual(["replace(a, '}', '')", "{'k': 1}['k']", 'f("a\\"}")']);
  });

  it('warns about an empty placeholder', () => {
    const r = renderTemplate('a#{ }b', vars({}));
    expect(r.text).toBe('ab');
    expect(r.warnings[0]).toEqual({ message: expect.stringContaining('Empty'), offset: 1 });
  });

  it('treats the nesting past the depth cap as text', () => {
    const deep = `${'#{'.repeat(20)}x${'}'.repeat(20)}`;
    const r = renderTemplate(deep, vars({ x: 'X' }), { maxDepth: 4 });
    expect(r.warnings.some((w) => w.message.includes('deeper than 4'))).toBe(true);
    expect(r.text.length).toBeLessThan(deep.length);
  });

  it('caps output at maxLength and reports it', () => {
    const ctx = vars({ big: 'x'.repeat(60_000) });
    const r = renderTemplate('#{big}#{big}#{big}', ctx);
    expect(r.text.length).toBe(MAX_VALUE_LENGTH);
    expect(r.truncated).toBe(true);
    expect(r.warnings).toEqual([{ message: expect.stringContaining('cut'), offset: 6 }]);
    expect(renderTemplate('abcdef', ctx, { maxLength: 3 }).text).toBe('abc');
  });

  it('does not cut a surrogate pair in half', () => {
    expect(renderTemplate('a😀', vars({}), { maxLength: 2 }).text).toBe('a');
  });

  it('stops evaluating after maxExpressions', () => {
    let calls = 0;
    const ctx = vars({}, () => {
      calls++;
      return '1';
    });
    const r = renderTemplate('#{1+1}'.repeat(10), ctx, { maxExpressions: 3 });
    expect(r.text).toBe('111');
    expect(calls).toBe(3);
    expect(r.warnings.filter((w) => w.message.includes('More than 3'))).toHaveLength(1);
  });

  it('stays linear on many unbalanced #{ and many placeholders', () => {
    const started = Date.now();
    renderTemplate('#{'.repeat(200_000), vars({}));
    renderTemplate('#{a}'.repeat(50_000), vars({ a: 'x' }));
    renderTemplate(`${'#{a'.repeat(50_000)}`, vars({}));
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('renderTemplate: url mode', () => {
  it('encodes values with encodeURIComponent and keeps the template text', () => {
    const ctx = vars({ q: 'a b&c=d/é', id: '7' });
    expect(renderTemplate('https://api.x/items/#{id}?q=#{q}&n=1', ctx, { mode: 'url' }).text).toBe(
      'https://api.x/items/7?q=a%20b%26c%3Dd%2F%C3%A9&n=1',
    );
  });

  it('encodes literal spaces of the template as %20', () => {
    expect(renderTemplate('https://x/s?q=hello world&a=#{a}', vars({ a: 'b c' }), { mode: 'url' }).text).toBe(
      'https://x/s?q=hello%20world&a=b%20c',
    );
  });

  it('takes a placeholder that begins the URL as a base URL', () => {
    const ctx = vars({ base: 'https://api.x/v1', id: 'a/b' });
    expect(renderTemplate('#{base}/items/#{id}', ctx, { mode: 'url' }).text).toBe(
      'https://api.x/v1/items/a%2Fb',
    );
  });

  it('keeps the escapes of a base URL that is already encoded, and escapes the rest', () => {
    const ctx = vars({ file: 'https://x/files/my%20photo%C3%A9.png?sig=a', raw: 'https://x/a b%zz' });
    expect(renderTemplate('#{file}', ctx, { mode: 'url' }).text).toBe(
      'https://x/files/my%20photo%C3%A9.png?sig=a',
    );
    expect(renderTemplate('#{raw}', ctx, { mode: 'url' }).text).toBe('https://x/a%20b%25zz');
  });

  it('nested names are resolved raw; only the final value is encoded', () => {
    const ctx = vars({ i: '1', v1: 'x y' });
    expect(renderTemplate('https://x/?a=#{v#{i}}', ctx, { mode: 'url' }).text).toBe('https://x/?a=x%20y');
  });

  it('does not throw on lone surrogates', () => {
    expect(renderTemplate('https://x/?a=#{a}', vars({ a: '\uD800x' }), { mode: 'url' }).text).toBe(
      'https://x/?a=%EF%BF%BDx',
    );
  });

  it('does not leave half a %XX escape when cut', () => {
    const r = renderTemplate('?a=#{a}', vars({ a: 'éé' }), { mode: 'url', maxLength: 8 });
    expect(r.text).toBe('?a=%C3');
  });
});

describe('renderTemplate: header mode', () => {
  it('strips CR, LF and NUL from values but not from the template', () => {
    const ctx = vars({ token: 'abc\r\nX-Admin: 1\0' });
    expect(renderTemplate('Bearer #{token}', ctx, { mode: 'header' }).text).toBe('Bearer abcX-Admin: 1');
  });
});

describe('renderTemplate: json mode', () => {
  const json = (t: string, values: Record<string, string>) =>
    renderTemplate(t, vars(values), { mode: 'json' }).text;

  it('escapes a value inside a JSON string', () => {
    const text = json('{"msg": "Hi #{name}!"}', { name: 'A "quoted"\nline\\' });
    expect(JSON.parse(text)).toEqual({ msg: 'Hi A "quoted"\nline\\!' });
  });

  it('inserts a bare value that is one JSON value as is', () => {
    expect(
      JSON.parse(json('{"n": #{n}, "ok": #{ok}, "o": #{o}}', { n: '42', ok: 'true', o: '{"a":[1]}' })),
    ).toEqual({
      n: 42,
      ok: true,
      o: { a: [1] },
    });
  });

  it('inserts a bare value that is not JSON as a string, so it cannot add keys', () => {
    const text = json('{"n": #{n}}', { n: '1, "admin": true' });
    expect(JSON.parse(text)).toEqual({ n: '1, "admin": true' });
    expect(JSON.parse(json('{"n": #{missing}}', {}))).toEqual({ n: '' });
  });

  it('tracks string state across escaped quotes in the template', () => {
    const text = json('{"a": "say \\"#{x}\\"", "b": #{x}}', { x: '5' });
    expect(JSON.parse(text)).toEqual({ a: 'say "5"', b: 5 });
  });

  it('ignores quotes inside the placeholder body when tracking string state', () => {
    const text = renderTemplate(
      '{"a": #{f("x")}, "b": "#{y}"}',
      vars({ y: 'q"' }, () => '1'),
      {
        mode: 'json',
      },
    ).text;
    expect(JSON.parse(text)).toEqual({ a: 1, b: 'q"' });
  });

  it('strips line breaks in json mode when asked (header JSON)', () => {
    const text = renderTemplate('{"Authorization": "Bearer #{t}"}', vars({ t: 'a\r\nb' }), {
      mode: 'json',
      stripLineBreaks: true,
    }).text;
    expect(JSON.parse(text)).toEqual({ Authorization: 'Bearer ab' });
  });
});

describe('renderTemplate: properties', () => {
  const ctx: TemplateContext = {
    lookup: (name) => (name.length % 3 === 0 ? undefined : `${name}#{${name}}`.repeat(3)),
    evaluate: (expression) => {
      if (expression.length % 2 === 0) throw new Error('odd');
      return `=${expression}`;
    },
  };
  const templateChars = fc.constantFrom(
    '#',
    '{',
    '}',
    '#{',
    'a',
    '.',
    ' ',
    '"',
    "'",
    '\\',
    '\n',
    '+',
    '1',
    '😀',
    '\uD800',
  );
  const templates = fc.oneof(
    fc.string(),
    fc.array(templateChars, { maxLength: 200 }).map((a) => a.join('')),
  );
  const modes = fc.constantFrom('text', 'url', 'json', 'header') as fc.Arbitrary<
    'text' | 'url' | 'json' | 'header'
  >;

  it('never throws and never exceeds the cap', () => {
    fc.assert(
      fc.property(templates, modes, fc.integer({ min: 0, max: 300 }), (template, mode, maxLength) => {
        const r = renderTemplate(template, ctx, { mode, maxLength });
        expect(r.text.length).toBeLessThanOrEqual(maxLength);
        for (const w of r.warnings) expect(w.offset).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves text without #{ unchanged in text mode', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!text.includes('#{'));
        expect(renderTemplate(text, ctx).text).toBe(text);
      }),
    );
  });

  it('json mode: any value in a string or bare position keeps the document valid', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const r = renderTemplate('{"s": "x#{a}y", "b": #{b}}', vars({ a, b }), { mode: 'json' });
        const parsed = JSON.parse(r.text);
        expect(Object.keys(parsed)).toEqual(['s', 'b']);
      }),
    );
  });
});
