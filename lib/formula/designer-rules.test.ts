import { describe, expect, it } from 'vitest';
import { compileExpression, compileFormula, type VariableStore } from './compile';
import { LIMITS } from './limits';
import type { Value } from './values';

/** The formula language as designers write it (issue 12, items 22 to 27). */

function memoryStore(initial: Record<string, string> = {}) {
  const vars = new Map(Object.entries(initial));
  const store: VariableStore = {
    get: (name) => vars.get(name),
    set: (name, value) => void (value === null ? vars.delete(name) : vars.set(name, value)),
  };
  return { vars, store };
}

async function run(source: string, initial: Record<string, string> = {}) {
  const { vars, store } = memoryStore(initial);
  const { errors } = await compileFormula(source).run({ store, plan: 'free' });
  return { vars: Object.fromEntries(vars), errors: errors.map((e) => e.message) };
}

const value = (expression: string, initial: Record<string, string> = {}): Value =>
  compileExpression(expression).evaluateSync({ store: memoryStore(initial).store, plan: 'free' });

describe('an unset variable (item 22)', () => {
  it('is 0 in arithmetic: a counter starts on the first visit', async () => {
    const first = await run('visits = visits + 1');
    expect(first).toEqual({ vars: { visits: '1' }, errors: [] });
    const second = await run('visits = visits + 1', first.vars);
    expect(second.vars.visits).toBe('2');
    expect(value('missing - 2')).toBe(-2);
    expect(value('2 - missing')).toBe(2);
    expect(value('missing * 3')).toBe(0);
    expect(value('missing / 4')).toBe(0);
    expect(value('missing % 5')).toBe(0);
    expect(value('missing ** 2')).toBe(0);
    expect(value('-missing')).toBe(0);
    expect(value('a + b')).toBe(0);
    expect(value("missing + '5'")).toBe(5);
  });

  it('is the empty text when joined to text', () => {
    expect(value("'Hello, ' + name + '!'")).toBe('Hello, !');
    expect(value("name + ' Smith'")).toBe(' Smith');
  });

  it('still refuses to divide by it', () => {
    expect(() => value('4 / missing')).toThrow('division by zero');
  });
});

describe('a cleared or unset variable (item 23)', () => {
  it("equals the empty text, and '' equals it", async () => {
    const { vars } = await run("name =\nempty = name == ''\nfull = name != ''\nback = '' == name", {
      name: 'Ann',
    });
    expect(vars).toEqual({ empty: 'True', full: 'False', back: 'True' });
    expect(value("never_set == ''")).toBe(true);
    // Still not equal to 0 or False: only to the empty text.
    expect(value('never_set == 0')).toBe(false);
    expect(value('never_set == False')).toBe(false);
  });
});

describe('ordering dates and times (item 24)', () => {
  it.each([
    ["'9:30' < '10:00'", true],
    ["'09:30' < '9:31'", true],
    ["'23:59' > '0:00'", true],
    ["'10:00' <= '10:00'", true],
    ["'31.03.2026' <= '01.04.2026'", true],
    ["'1.4.2026' >= '01.04.2026'", true],
    ["'02.01.2025' > '01.12.2024'", true],
    ["'01.12.2024' > '02.01.2025'", false],
    ["'01.04.2026 9:30' < '01.04.2026 10:00'", true],
    ["'31.03.2026 23:59' < '01.04.2026 00:00'", true],
    ["'01.04.2026 10:00' > '01.04.2026 10:00'", false],
  ])('%s is %s', (expression, expected) => {
    expect(value(expression)).toBe(expected);
  });

  it('orders the date system variables against written dates, in formulas and comparison expressions', () => {
    const today = { current_date: '02.03.2026' };
    expect(value("current_date <= '01.04.2026'", today)).toBe(true);
    expect(value("current_date > '28.02.2026'", today)).toBe(true);
    expect(value("'15:05' >= current_time", { current_time: '9:05' })).toBe(true);
  });

  it('compares them for equality in time too, and sorts them', () => {
    expect(value("'1.4.2026' == '01.04.2026'")).toBe(true);
    expect(value("'9:05' == '09:05'")).toBe(true);
    expect(value("'9:05' != '09:06'")).toBe(true);
    expect(value("sort(['10:00', '9:30', '23:15'])")).toEqual(['9:30', '10:00', '23:15']);
    expect(value("sort(['01.02.2026', '15.01.2026'])")).toEqual(['15.01.2026', '01.02.2026']);
  });

  it('orders other texts alphabetically as before', () => {
    expect(value("'b' > 'a'")).toBe(true);
    // A date and a time, or a date and other text, are still texts.
    expect(value("'01.04.2026' < '9:30'")).toBe(true);
  });
});

describe('numbers as clients write them (item 25)', () => {
  it.each([
    ["'2,5' * 2", 5],
    ["'2,5' + 1", 3.5],
    ["'1 500' * 2", 3000],
    ["'1 500' + '250'", 1750],
    ["'12 345 678,9' - 0.9", 12345678],
    ["'-1 500,25' * 2", -3000.5],
    ["'1\u00a0500' + 0", 1500],
    ["'1\u202f500' + 0", 1500],
    // A comma is always the decimal separator: 1,500 is one and a half (write 1 500 for thousands).
    ["'1,500' * 2", 3],
    ["'2,5' == 2.5", true],
    ["'1 500' == 1500", true],
    ["'2,5' > 2", true],
    ["float('0,75')", 0.75],
    ["int('1 999,99')", 1999],
  ])('%s is %s', (expression, expected) => {
    expect(value(expression)).toBe(expected);
  });

  it('reads a client’s answer as a number in arithmetic', () => {
    expect(value('question * 2', { question: '2,5' })).toBe(5);
    expect(value('question * 2', { question: '1 500' })).toBe(3000);
  });

  it('keeps lists and other comma or space separated text as text', () => {
    for (const [expression, expected] of [
      ["'1,2,3' + 'x'", '1,2,3x'],
      ["'a' + '1,2,3'", 'a1,2,3'],
      ["'12 3456' + 1", '12 34561'],
      ["'1 50' + 1", '1 501'],
      ["'2,' + 1", '2,1'],
      ["split('10,20', ',')", ['10', '20']],
      ["len('1 500')", 5],
    ] as const) {
      expect(value(expression), expression).toEqual(expected);
    }
  });

  it('makes text times a number a clear error that points to repeat()', () => {
    expect(() => value("'ab' * 3")).toThrow(
      `cannot use * with the text "ab", which is not a number; to repeat a text, use repeat(text, times)`,
    );
    expect(() => value("3 * 'ab'")).toThrow('to repeat a text, use repeat(text, times)');
    expect(() => value('question * 2', { question: 'two' })).toThrow('the text "two", which is not a number');
    // Lists still repeat.
    expect(value('[1, 2] * 2')).toEqual([1, 2, 1, 2]);
  });

  it('repeats text with repeat(), checking the size before building it', () => {
    expect(value("repeat('ab', 3)")).toBe('ababab');
    expect(value("repeat('ab', 2.9)")).toBe('abab');
    expect(value("repeat('', 1e300)")).toBe('');
    expect(value("repeat('-', '0')")).toBe('');
    expect(() => value("repeat('ab', 1e300)")).toThrow(
      `a text longer than ${LIMITS.stringLength} characters`,
    );
    expect(() => value(`repeat('x', ${LIMITS.stringLength + 1})`)).toThrow(
      `a text longer than ${LIMITS.stringLength} characters`,
    );
    expect(value(`len(repeat('x', ${LIMITS.stringLength}))`)).toBe(LIMITS.stringLength);
    expect(() => value("repeat('ab', -1)")).toThrow(
      'repeat: times must be a finite number, 0 or more, got -1',
    );
    expect(() => value("repeat('ab', 'many')")).toThrow('repeat: times must be a number');
  });
});

describe('long numeric texts (item 26)', () => {
  it('compare exactly: long ids never collide', () => {
    expect(value("'123456789012345678' == '123456789012345679'")).toBe(false);
    expect(value("'123456789012345678' != '123456789012345679'")).toBe(true);
    expect(value("'123456789012345678' < '123456789012345679'")).toBe(true);
    expect(value("'123456789012345679' > '123456789012345678'")).toBe(true);
    expect(value('a == b', { a: '98765432109876543210', b: '98765432109876543211' })).toBe(false);
    expect(value("in_array('123456789012345679', ['123456789012345678'])")).toBe(false);
  });

  it('equal the same number written another way', () => {
    expect(value("'123456789012345678' == '0123456789012345678.000'")).toBe(true);
    expect(value("'123456789012345678' >= '123456789012345678'")).toBe(true);
    expect(value("'1 234 567 890 123 456 789' == '1234567890123456789'")).toBe(true);
    expect(value("'12345678901234567,5' < '12345678901234567.6'")).toBe(true);
    expect(value("'-123456789012345678' < '-123456789012345677'")).toBe(true);
    expect(value("'10' == '10.0'")).toBe(true);
    expect(value("'0.1' == 0.1")).toBe(true);
  });
});

describe('argument order of list functions (item 27)', () => {
  it.each([
    ["in_array('b', ['a', 'b'])", true],
    ["in_array(['a', 'b'], 'b')", true],
    ["in_array(['a', 'b'], 'z')", false],
    ["index(['a', 'b'], 'b')", 1],
    ["index('b', ['a', 'b'])", 1],
    ['contains([1, 2], 2)', true],
    ['contains(2, [1, 2])', true],
    ["contains('a', {'a': 1})", true],
    ["contains('hello', 'ell')", true],
    ['remove([1, 2, 1], 1)', [2, 1]],
    ['remove(1, [1, 2, 1])', [2, 1]],
    ['append([1, 2], 3)', [1, 2, 3]],
    ['append(3, [1, 2])', [1, 2, 3]],
    // Two lists cannot be told apart: the documented order holds.
    ['append([1], [2])', [1, [2]]],
    ['in_array([1], [[1], [2]])', true],
  ])('%s is %j', (expression, expected) => {
    expect(value(expression)).toEqual(expected);
  });

  it('reads the list variables of either order', () => {
    expect(value("in_array(tags, 'vip')", { tags: '["new","vip"]' })).toBe(true);
    expect(value('index(sku, cart)', { sku: 'tea', cart: '["cup","tea"]' })).toBe(1);
  });

  it('does not take an unset list for an item', () => {
    expect(() => value("append(cart, ['tea', 2])")).toThrow('append: list must be a list, got None');
  });
});
