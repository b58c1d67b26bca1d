import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogue } from './catalogue';
import {
  compileExpression,
  compileFormula,
  type FormulaHost,
  type Plan,
  type VariableStore,
} from './compile';
import { getCompletions, getDiagnostics, getHover, getSignatureHelp, highlight } from './editor';
import { LIMITS } from './limits';
import { seededRandom } from './seeded-random';
import { deserializeValue, FormulaError, serializeValue, toDisplayString, type Value } from './values';

function memoryStore(initial: Record<string, string> = {}) {
  const vars = new Map(Object.entries(initial));
  const store: VariableStore = {
    get: (name) => vars.get(name),
    set: (name, value) => {
      if (name === 'client_id') throw new Error('client_id is a system variable');
      if (value === null) vars.delete(name);
      else vars.set(name, value);
    },
  };
  return { vars, store };
}

async function run(
  source: string,
  initial: Record<string, string> = {},
  options: { plan?: Plan; host?: FormulaHost; random?: () => number } = {},
) {
  const { vars, store } = memoryStore(initial);
  const compiled = compileFormula(source);
  const { errors } = await compiled.run({
    store,
    plan: options.plan ?? 'business',
    host: options.host,
    random: options.random ?? (() => 0.5),
    now: () => new Date('2026-03-02T09:05:00Z'),
    timeZone: 'Europe/Berlin',
  });
  return { vars: Object.fromEntries(vars), errors, diagnostics: compiled.diagnostics };
}

const value = async (expression: string, initial: Record<string, string> = {}) => {
  const { store } = memoryStore(initial);
  return compileExpression(expression).evaluate({
    store,
    plan: 'business',
    random: () => 0.25,
    now: () => new Date('2026-03-02T09:05:00Z'),
    timeZone: 'UTC',
  });
};

describe('parsing', () => {
  it('reports every error of a formula with its line and column', () => {
    const diagnostics = getDiagnostics("a = (1 + 2\nb = 2\nc = foo(1)\nd = len()\ne = 'open\nf = 1 +");
    expect(diagnostics.map((d) => [d.line, d.message])).toEqual([
      [2, "missing closing bracket for '(' opened at 1:5"],
      [3, 'unknown function foo()'],
      [4, 'len() takes 1 argument, got 0'],
      [5, "the text starting with ' is never closed: add a closing '"],
      [6, 'the line ends where a value is expected'],
    ]);
  });

  it('resumes at the end of a line that stops where a value is expected: the next lines parse and run', async () => {
    const source = 'a = 2\nb = a *\nc = 5\ne = 7';
    expect(getDiagnostics(source).map((d) => [d.line, d.column, d.message])).toEqual([
      [2, 8, 'the line ends where a value is expected'],
    ]);
    expect((await run(source)).vars).toEqual({ a: '2', c: '5', e: '7' });
    // A malformed number is a syntax error at its place; the other lines run.
    const malformed = 'x = 1e+\ny = 2';
    expect(getDiagnostics(malformed).map((d) => [d.line, d.column, d.endColumn, d.message])).toEqual([
      [1, 5, 8, "'1e+' is not a number: the exponent needs digits, like 1e+3"],
    ]);
    expect((await run(malformed)).vars).toEqual({ y: '2' });
    // Every line broken the same way is diagnosed, each at its own end.
    expect(getDiagnostics('b = a *\nc = 1 +\nd = -\ne = not').map((d) => [d.line, d.column])).toEqual([
      [1, 8],
      [2, 8],
      [3, 6],
      [4, 8],
    ]);
  });

  it('joins lines inside brackets, allows comments, and refuses a stray closing bracket', () => {
    expect(getDiagnostics('items = [1,\n  2, /* two */\n  3]\n/* a\nlong comment */\nx = 1')).toEqual([]);
    expect(getDiagnostics('x = 1)')[0].message).toBe("')' has no opening bracket");
    expect(getDiagnostics('/* never closed')[0].message).toMatch(/never closed/);
  });

  it('refuses 100,000 nested brackets with an error, not a crash', () => {
    const deep = `x = ${'('.repeat(100_000)}1${')'.repeat(100_000)}`;
    expect(getDiagnostics(deep)[0].message).toMatch(/longer than/);
    const nested = `x = ${'('.repeat(5000)}1${')'.repeat(5000)}`;
    expect(getDiagnostics(nested)[0].message).toMatch(/more than 100 levels/);
    expect(getDiagnostics(`x = ${'-'.repeat(5000)}1`)[0].message).toMatch(/levels/);
    expect(getDiagnostics(`x = ${'not '.repeat(3000)}1`)[0].message).toMatch(/levels/);
  });
});

describe('evaluation', () => {
  it('follows Python precedence and right-associative powers', async () => {
    expect(await value('2 + 3 * 4')).toBe(14);
    expect(await value('(2 + 3) * 4')).toBe(20);
    expect(await value('2 ** 3 ** 2')).toBe(512);
    expect(await value('2 ^ 10')).toBe(1024);
    expect(await value('-2 ** 2')).toBe(-4);
    expect(await value('7 % 3 + 10 / 4')).toBe(3.5);
    expect(await value('-7 % 3')).toBe(2);
    expect(await value('1 < 2 and 2 < 3 or False')).toBe(true);
    expect(await value('not 1 == 1 || 2 > 1 && 3')).toBe(3);
    expect(await value('True AND NOT False')).toBe(true);
  });

  it('treats numeric strings as numbers in arithmetic and comparisons', async () => {
    expect(await value("'2' + 3")).toBe(5);
    expect(await value("'2' + '3'")).toBe(5);
    expect(await value("'a' + 3")).toBe('a3');
    expect(await value("'10' > '9'")).toBe(true);
    expect(await value('n * 2', { n: '21' })).toBe(42);
  });

  it('compares different types without errors: == False, != True, ordering False', async () => {
    expect(await value("'a' == 1")).toBe(false);
    expect(await value("'a' != 1")).toBe(true);
    expect(await value("'a' < 1")).toBe(false);
    expect(await value('None > 0')).toBe(false);
    expect(await value('[1, 2] == [1, 2]')).toBe(true);
    expect(await value("{'a': 1} == {'a': 1}")).toBe(true);
  });

  it('does date and time arithmetic', async () => {
    expect(await value("'11.12.2021' - '8.12.2021'")).toBe(3);
    expect(await value("'11:12' - '3:45'")).toBe(447);
    expect(await value("'28.02.2024' + 2")).toBe('01.03.2024');
    expect(await value("'01.01.2024' - 1")).toBe('31.12.2023');
  });

  it('keeps dates within the years 1 to 9999 and times countable, saying so when arithmetic leaves them', async () => {
    expect(await value("'01.01.0050' + 1")).toBe('02.01.0050');
    expect(await value("'01.01.2050' - '01.01.0050'")).toBe(730485);
    expect(await value("addDays('31.12.9999', 0)")).toBe('31.12.9999');
    expect(await value("addMonth('31.01.0004', 1)")).toBe('29.02.0004');
    // There is no year 0: such a text is no date, so adding joins texts.
    expect(await value("'01.01.0000' + 1")).toBe('01.01.00001');
    for (const expression of [
      "'01.01.2020' + 1e300",
      "'01.01.2020' - 800000",
      "addDays('01.01.2020', 1e300)",
      "addMonth('01.01.2020', 1e300)",
      "addYear('31.12.9999', 1)",
      "addMinutes('01.01.2020 10:30', 1e300)",
    ]) {
      await expect(value(expression), expression).rejects.toThrow(
        'the date would fall outside the years 1 to 9999',
      );
    }
    for (const expression of ["'10:30' + 1e300", "'10:30' - '1e400'", "addMinutes('10:30', 1e300)"]) {
      await expect(value(expression), expression).rejects.toThrow('the number of minutes is too large');
    }
  });

  it('reads date-times as the language reads dates: a real day, any year from 1, a real time', async () => {
    expect(await value("addMinutes('01.01.0050 10:00', 5)")).toBe('01.01.0050 10:05');
    expect(await value("convert_datetime('29.02.2024 23:59:30', '%d.%m.%Y %H:%M:%S')")).toBe(
      '29.02.2024 23:59:30',
    );
    for (const [expression, message] of [
      ["addMinutes('31.02.2024 10:00', 5)", 'is not hh:mm or dd.mm.yyyy hh:mm'],
      ["addMinutes('01.01.2024 24:00', 5)", 'is not hh:mm or dd.mm.yyyy hh:mm'],
      ["convert_datetime('30.02.2024', '%d.%m.%Y')", 'is not a date-time'],
      ["convert_datetime('01.01.2024 10:60', '%d.%m.%Y')", 'is not a date-time'],
    ]) {
      await expect(value(expression), expression).rejects.toThrow(message);
    }
  });

  it('evaluates only the branch if() picks', async () => {
    expect(await value("if(1 > 0, 'yes', 1 / 0)")).toBe('yes');
    expect(await value("if(0, 1 / 0, 'no')")).toBe('no');
    expect(await value('if(0, 1)')).toBeNull();
  });

  it('assigns names and elements, clears with `name =`, and keeps scopes by prefix', async () => {
    const { vars, errors } = await run(
      "a = [1, 2]\na[1] = 5\nd = {'k': {'x': 1}}\nd['k']['x'] = 'y'\nclient.phone = '+100'\ngone =\nn = a[-1] + len(d)",
      { gone: 'here' },
    );
    expect(errors).toEqual([]);
    expect(vars).toEqual({ a: '[1,5]', d: '{"k":{"x":"y"}}', 'client.phone': '+100', n: '6' });
    const refused = await run('project.x = 1');
    expect(refused.errors[0].message).toMatch(/project constant/);
  });

  it("writes a failing line's error into its variable and runs the other lines", async () => {
    const { vars, errors } = await run('a = 1\nb = [1][5]\nc = a + 1\nclient_id = 5\nd = undefined_name');
    expect(vars.a).toBe('1');
    expect(vars.b).toBe('Error: index 5 is out of range (1 items)');
    expect(vars.c).toBe('2');
    expect(errors.map((e) => [e.line, e.target])).toEqual([
      [2, 'b'],
      [4, 'client_id'],
    ]);
    // Unknown names are None, as documented.
    expect(vars.d).toBeUndefined();
  });

  it('tells a data error from a limit by its kind, not its words: the lines after it still run', async () => {
    const { vars, errors } = await run(
      "d = {'x': 1}['steps']\ne = 7\nf = [1]['ran longer']\ng = 8\nh = get_block_name_by_id(1)\ni = 9",
      {},
      { host: { call: async () => Promise.reject(new Error('the CRM took more than 5 steps')) } },
    );
    expect(errors.map((e) => [e.line, e.message])).toEqual([
      [1, "the dict has no key 'steps'"],
      [3, 'an index must be a whole number, got ran longer'],
      [5, 'get_block_name_by_id(): the CRM took more than 5 steps'],
    ]);
    expect([vars.e, vars.g, vars.i]).toEqual(['7', '8', '9']);
  });

  it('refuses results too large for a number instead of storing Infinity or NaN', async () => {
    for (const expression of [
      '1e308 * 10',
      '1e308 + 1e308',
      '-1e308 - 1e308',
      '1e308 / 0.1',
      '10 ** 400',
      'pow(10, 400)',
      "'1e400' + 1",
    ]) {
      await expect(value(expression), expression).rejects.toThrow('the result is too large');
    }
    await expect(value('x * 10', { x: '1e308' })).rejects.toThrow('the result is too large');
    await expect(value("'1e400' - '1e400'")).rejects.toThrow('the result is not a number');
    // Text that only looks like an overflowing number still joins as text.
    expect(await value("'a' + '1e400'")).toBe('a1e400');
    expect(await value('1e308 * 1')).toBe(1e308);
  });

  it('repeats text (repeat()) and lists a finite number of times, 0 or more, and says so otherwise', async () => {
    expect(await value("repeat('ab', 2.9)")).toBe('abab');
    expect(await value("repeat('', 1e300)")).toBe('');
    expect(await value('[] * 1e300')).toEqual([]);
    for (const [expression, reason] of [
      ["repeat('', '1e400')", 'repeat: times must be a finite number, 0 or more, got Infinity'],
      ["repeat('ab', -1)", 'repeat: times must be a finite number, 0 or more, got -1'],
      ["[] * '1e400'", 'cannot repeat a list Infinity times: the count must be a finite number, 0 or more'],
      ['[1] * 1e300', `a list longer than ${LIMITS.listLength} items`],
      ["repeat('ab', 1e300)", `a text longer than ${LIMITS.stringLength} characters`],
      ["'ab' * 2", 'to repeat a text, use repeat(text, times)'],
    ]) {
      await expect(value(expression), expression).rejects.toThrow(reason);
    }
  });

  it('compiles once and evaluates many times', async () => {
    const compiled = compileFormula('total = price * qty');
    for (const [price, qty, total] of [
      ['2', '3', '6'],
      ['5', '5', '25'],
    ]) {
      const { vars, store } = memoryStore({ price, qty });
      await compiled.run({ store, plan: 'free' });
      expect(vars.get('total')).toBe(total);
    }
  });
});

describe('values', () => {
  it('display and round-trip through storage', () => {
    expect(toDisplayString(3)).toBe('3');
    expect(toDisplayString(2.5)).toBe('2.5');
    expect(toDisplayString(0.1 + 0.2)).toBe('0.3');
    expect(toDisplayString(null)).toBe('');
    expect(toDisplayString(true)).toBe('True');
    const nested: Value = new Map<string, Value>([['a', [1, 'x', null, false]]]);
    expect(deserializeValue(serializeValue(nested))).toEqual(nested);
    expect(deserializeValue('007')).toBe('007');
    expect(deserializeValue('[broken')).toBe('[broken');
  });
});

describe('built-in functions', () => {
  const cases: [string, Value][] = [
    ['abs(-5)', 5],
    ['ceil(4.2)', 5],
    ['floor(4.8)', 4],
    ["int('42.9')", 42],
    ['round(3.14159, 2)', 3.14],
    ['round(2.5)', 3],
    ['min(3, 1, 2)', 1],
    ['max([3, 1, 2])', 3],
    ['pow(2, 10)', 1024],
    ['sqrt(16)', 4],
    ['log(100, 10)', 2],
    ['random(1, 6)', 2],
    ["len('héllo')", 5],
    ["lower('Hi')", 'hi'],
    ["upper('Hi')", 'HI'],
    ["strip('  hi ')", 'hi'],
    ["strip('xxhixx', 'x')", 'hi'],
    ["replace('a-b-c', '-', '+')", 'a+b+c'],
    ["contains('hello', 'ell')", true],
    ['contains([1, 2], 2)', true],
    ["startswith('+7900', '+7')", true],
    ["endswith('a.png', '.png')", true],
    ["substring('hello', 1, 3)", 'el'],
    ["split('a,b', ',')", ['a', 'b']],
    ["split(' a  b ')", ['a', 'b']],
    ["concat('a', 1, None, 'b')", 'a1b'],
    ["repeat('ab', 3)", 'ababab'],
    ["urlencode('a b&c')", 'a%20b%26c'],
    ["urldecode('a%20b+c')", 'a b c'],
    ["base64('hi')", 'aGk='],
    ["base64decode('aGk=')", 'hi'],
    ["md5('a')", '0cc175b9c0f1b6a831c399e269772661'],
    ["sha256('abc')", 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      "hmac_hexdigest('key', 'The quick brown fox jumps over the lazy dog')",
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    ],
    [
      "hmac_hexdigest('key', 'The quick brown fox jumps over the lazy dog', 'md5')",
      '80070713463e7749b90c2dc24911e275',
    ],
    ["normalizePhone('8 (900) 123-45-67')", '79001234567'],
    ["addDays('28.02.2024', 2)", '01.03.2024'],
    ["addMinutes('23:50', 20)", '00:10'],
    ["addMinutes('01.01.2024 23:50', 20)", '02.01.2024 00:10'],
    ["addMonth('31.01.2024', 1)", '29.02.2024'],
    ["addYear('29.02.2024', 1)", '28.02.2025'],
    ["get_datetime('%d.%m.%Y %H:%M')", '02.03.2026 09:05'],
    ["convert_datetime('2024-05-01T10:00:00Z', '%d.%m.%Y %H:%M', 'Europe/Berlin')", '01.05.2024 12:00'],
    ['append([1, 2], 3)', [1, 2, 3]],
    ["insert(['a', 'c'], 1, 'b')", ['a', 'b', 'c']],
    ['remove([1, 2, 1], 1)', [2, 1]],
    ["index(['a', 'b'], 'b')", 1],
    ["index(['a'], 'z')", -1],
    ["in_array('b', ['a', 'b'])", true],
    ['arr_len([1, 2])', 2],
    ['sort([3, 1, 2])', [1, 2, 3]],
    ['sort([3, 1, 2], True)', [3, 2, 1]],
    ['sum_array([1, 2, 3])', 6],
    ["dict_keys_to_array({'a': 1, 'b': 2})", ['a', 'b']],
    ["dict_values_to_array({'a': 1})", [1]],
    ["exist_key({'a': 1}, 'a')", true],
    [`from_json('{"a": [1, 2]}')['a'][1]`, 2],
    ["to_json({'a': [1, 'x']})", '{"a":[1,"x"]}'],
    ["str(12) + 'x'", '12x'],
  ];
  it.each(cases)('%s', async (expression, expected) => {
    expect(await value(expression)).toEqual(expected);
  });

  it('every pure built-in of the catalogue is tested here, and every entry is documented', () => {
    const tested = new Set(cases.map(([e]) => /^(\w+)\(/.exec(e)?.[1]).concat(['if', 'float']));
    for (const entry of catalogue) {
      expect(entry.doc.length, entry.name).toBeGreaterThan(5);
      expect(entry.example, entry.name).toContain(entry.name);
      if (!entry.host) expect(tested.has(entry.name), `${entry.name} untested`).toBe(true);
    }
  });

  it('gives clear errors for wrong arguments', async () => {
    const { errors } = await run("a = sqrt('x')\nb = addDays('soon', 1)\nc = from_json('{')\nd = len(1, 2)");
    expect(errors.map((e) => e.message)).toEqual([
      'sqrt: x must be a number, got string "x"',
      'addDays: date must be a date dd.mm.yyyy, got "soon"',
      'from_json: the text is not valid JSON',
      'len() takes 1 argument, got 2',
    ]);
  });
});

describe('in-flow functions', () => {
  it('are called through the host with positional arguments, None to skip one', async () => {
    const calls: [string, Value[]][] = [];
    const host: FormulaHost = {
      async call(name, args) {
        calls.push([name, args]);
        return name === 'requests_get' ? new Map<string, Value>([['status', 200]]) : true;
      },
    };
    const { vars, errors } = await run(
      "r = requests_get('https://x.example', None, None, {'q': 1})\ns = r['status'] + random(1, 6)\nmessage(client_id, 'hi', None, 60)",
      {},
      { host },
    );
    expect(errors).toEqual([]);
    expect(calls).toEqual([
      ['requests_get', ['https://x.example', null, null, new Map([['q', 1]])]],
      ['message', [null, 'hi', null, 60]],
    ]);
    expect(vars.s).toBe('204');
  });

  it('may change variables: the lines after the call read them again', async () => {
    const vars = new Map([['client.a', '1']]);
    const store: VariableStore = {
      get: (name) => vars.get(name),
      set: (name, value) => void (value === null ? vars.delete(name) : vars.set(name, value)),
    };
    const host: FormulaHost = {
      call: async (_, [, name, value]) => {
        store.set(`client.${name}`, String(value));
        return true;
      },
    };
    const formula = compileFormula("x = client.a\nset_client_var(1, 'a', 5)\ny = client.a + x");
    expect((await formula.run({ store, host, plan: 'business' })).errors).toEqual([]);
    expect(Object.fromEntries(vars)).toEqual({ 'client.a': '5', x: '1', y: '6' });
  });

  it('need the business or AI plan', async () => {
    const { errors } = await run("message(1, 'hi')", {}, { plan: 'free', host: { call: async () => true } });
    expect(errors[0].message).toBe(
      'message() needs the business or AI plan; this project is on the free plan (change it in Settings, Plan)',
    );
  });

  it('stop after the per-run call limit', async () => {
    const source = Array.from(
      { length: LIMITS.hostCalls + 1 },
      (_, i) => `x${i} = get_block_name_by_id(1)`,
    ).join('\n');
    const { errors } = await run(source, {}, { host: { call: async () => 'name' } });
    expect(errors.at(-1)?.message).toMatch(/at most 50 in-flow function calls/);
  });
});

describe('safety', () => {
  it('reaches no host object: such names are unknown, such keys are data', async () => {
    for (const name of [
      'constructor',
      '__proto__',
      'prototype',
      'this',
      'eval',
      'require',
      'process',
      'globalThis',
    ]) {
      expect(await value(name)).toBeNull();
    }
    expect(getDiagnostics('eval(1)')[0].message).toBe('unknown function eval()');
    const { vars } = await run(
      "d = {}\nd['__proto__'] = 'x'\nd['constructor'] = 1\nk = dict_keys_to_array(d)\nn = d['__proto__']",
    );
    expect(vars.k).toBe('["__proto__","constructor"]');
    expect(vars.n).toBe('x');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(await value("from_json('{\"__proto__\": {\"polluted\": 1}}')['__proto__']['polluted']")).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('limits steps, text and list sizes with clear errors', async () => {
    const big = await run("s = repeat('x', 200000)\nl = [1] * 20000\nok = 1");
    expect(big.errors.map((e) => e.message)).toEqual([
      `a text longer than ${LIMITS.stringLength} characters`,
      `a list longer than ${LIMITS.listLength} items`,
    ]);
    expect(big.vars.ok).toBe('1');
    const long = Array.from(
      { length: 400 },
      () => `x = sum_array([${'1,'.repeat(10)}1]) + len('${'a'.repeat(10)}')`,
    ).join('\n');
    expect((await run(long)).errors).toEqual([]);
  });

  it('never throws anything but its own errors on random input, and is deterministic', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), async (source) => {
        const first = await run(source, { x: '1' }, { random: seededRandom(7) }).catch((e) => e);
        expect(first instanceof FormulaError || !(first instanceof Error)).toBe(true);
        const second = await run(source, { x: '1' }, { random: seededRandom(7) }).catch((e) => e);
        expect(JSON.stringify(second)).toBe(JSON.stringify(first));
      }),
      { numRuns: 300 },
    );
    const alphabet = fc.constantFrom(
      ...'()[]{}+-*/%=<>!,:\'" \nabcx1.2'.split(''),
      'and',
      'if(',
      'len(',
      'None',
      '**',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(alphabet, { maxLength: 40 }), async (parts) => {
        const result = await run(parts.join(''), { x: '[1,2]' }).catch((e) => e);
        expect(result instanceof Error && !(result instanceof FormulaError)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe('editor support', () => {
  it('highlights tokens', () => {
    expect(highlight("x = len('a') /* c */").map((t) => t.kind)).toEqual([
      'variable',
      'operator',
      'function',
      'string',
      'comment',
    ]);
  });

  it("completes built-ins with signatures and the bot's variables", () => {
    const items = getCompletions('x = le', 6, ['level', 'client.name']);
    expect(items.map((i) => i.label)).toEqual(['len', 'level']);
    expect(items[0]).toMatchObject({ detail: 'len(value) → number', insertText: 'len(' });
    expect(getCompletions('x = cli', 7, ['client.name']).map((i) => i.label)).toEqual(['client.name']);
    expect(getCompletions("x = 'le", 7, [])).toEqual([]);
    expect(getCompletions('x = /* le', 9, [])).toEqual([]);
  });

  it('gives signature help with the active parameter, and hover docs', () => {
    const help = getSignatureHelp("x = replace('a', ", 17);
    expect(help).toMatchObject({ name: 'replace', activeParameter: 1 });
    expect(help?.parameters.map((p) => p.label)).toEqual(['text', 'old', 'new']);
    expect(getSignatureHelp('x = len([1, 2', 13)).toMatchObject({ name: 'len', activeParameter: 0 });
    expect(getHover('x = message(1, 2)', 6)?.contents).toContain('business or AI plan');
    expect(getHover('client.phone = 1', 3)?.contents).toContain('client profile variable');
  });
});
