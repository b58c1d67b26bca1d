import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { at } from './closures';
import { compileExpression, compileFormula, type RunOptions, type VariableStore } from './compile';
import { binary, getIndex, unary } from './evaluate';
import { LIMITS } from './limits';
import { seededRandom } from './seeded-random';
import { asNumber, FormulaError, parseDate, parseTime, type Value } from './values';

/**
 * Formulas without in-flow calls take a synchronous path that counts no steps and keeps
 * converted variables between runs; the others take the general path. Both must give the same
 * values and the same errors, and neither may ever answer with a stale variable.
 */

const stored = (vars: Record<string, string>): RunOptions['store'] => {
  const map = new Map(Object.entries(vars));
  return {
    get: (name) => map.get(name),
    set: (name, value) => {
      if (value === null) map.delete(name);
      else map.set(name, value);
    },
  };
};

const options = (vars: Record<string, string>): RunOptions => ({
  store: stored(vars),
  plan: 'business',
  host: { call: async () => 'from the host' },
  random: seededRandom(7),
  now: () => new Date('2026-03-02T09:05:00Z'),
  timeZone: 'UTC',
});

const first = {
  n: '42',
  f: '2.5',
  s: 'hello',
  z: '007',
  d: '11.12.2021',
  t: '23:50',
  l: '[1,"2",[3]]',
  m: '{"k":"v","n":2}',
  b: 'True',
  big: 'x'.repeat(60_000),
};
// The same names with other values, types and shapes.
const second = { n: 'x', f: '-1', s: '12', d: '8.12.2021', t: 'later', l: '[5]', m: '{"k":[1]}', b: '0' };

type Outcome = { value: Value } | { error: string; line: number; column: number };

async function outcome(fn: () => Value | Promise<Value>, shift = 0): Promise<Outcome> {
  try {
    return { value: await fn() };
  } catch (error) {
    if (!(error instanceof FormulaError)) throw error;
    const column = error.line === 1 ? error.column - shift : error.column;
    return { error: error.message, line: error.line, column };
  }
}

const leaf = fc.oneof(
  fc.integer({ min: -3, max: 12 }).map(String),
  fc.constantFrom('0.5', '1e3', 'True', 'False', 'None', '[1, 2]', "{'k': 1}", '[]'),
  fc.constantFrom("'3'", "'007'", "' 4 '", "'abc'", "''", "'11.12.2021'", "'29.02.2024'", "'10:30'", "'k'"),
  fc.constantFrom('n', 'f', 's', 'z', 'd', 't', 'l', 'm', 'b', 'big', 'missing'),
);
const OPERATORS = ['+', '-', '*', '/', '%', '**', '==', '!=', '<', '>', '<=', '>=', 'and', 'or'];
const FUNCTIONS: [string, number][] = [
  ['len', 1],
  ['str', 1],
  ['abs', 1],
  ['upper', 1],
  ['sort', 1],
  ['round', 2],
  ['concat', 2],
  ['addDays', 2],
  ['contains', 2],
  ['append', 2],
  ['max', 2],
  ['if', 3],
];
const expression = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc
      .tuple(tie('expr'), fc.constantFrom(...OPERATORS), tie('expr'))
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(fc.constantFrom('-', 'not '), tie('expr')).map(([op, a]) => `(${op}${a})`),
    fc.tuple(tie('expr'), tie('expr')).map(([a, i]) => `${a}[${i}]`),
    fc
      .tuple(fc.constantFrom(...FUNCTIONS), fc.array(tie('expr'), { minLength: 3, maxLength: 3 }))
      .map(([[name, n], args]) => `${name}(${args.slice(0, n).join(', ')})`),
    fc.constant('random(1, 6)'),
  ),
})).expr;

describe('the shortcuts for common cases', () => {
  // Operands of every type, and the number edge cases: -0, overflowing texts, numeric texts.
  const operands = [
    '0',
    '(-0)',
    '2',
    '2.5',
    '(-3)',
    "'1e400'",
    "'-1e400'",
    '1e308',
    "'3'",
    "' 4 '",
    "'-2.5'",
    "'1e3'",
    "'.5'",
    "'007'",
    `'${' '.repeat(45)}6'`,
    "'11.12.2021'",
    "'10:30'",
    "'abc'",
    // Joined text, which the shortcut for text that cannot be a number joins to without a look.
    "('Dear ' + z + 1)",
    "('a' + [1])",
    "{'1': 'one', 'True': 'yes', '': 'empty'}",
    "''",
    "'k'",
    'True',
    'False',
    'None',
    '[1, 2]',
    "{'k': 1}",
    '[]',
    'n',
    'z',
    'd',
    't',
    'big',
  ];
  const operand = (source: string) => compileExpression(source).evaluateSync(options(first));
  // As the interpreter reports them: errors other than the language's own become its own.
  const reference = async (fn: () => Value) => {
    const result = await outcome(() => {
      try {
        return fn();
      } catch (error) {
        throw at({ line: 1, column: 1, offset: 0, end: 0 }, error);
      }
    });
    return 'error' in result ? { error: result.error } : result;
  };
  const compiled = async (source: string) => {
    const result = await outcome(() => compileExpression(source).evaluateSync(options(first)));
    return 'error' in result ? { error: result.error } : result;
  };

  it('give what the operators give, for operands of every type', async () => {
    const ops = OPERATORS.filter((op) => op !== 'and' && op !== 'or');
    for (const a of operands) {
      for (const b of operands) {
        for (const op of ops) {
          const expected = await reference(() => binary(op, operand(a), operand(b)));
          expect(await compiled(`${a} ${op} ${b}`), `${a} ${op} ${b}`).toEqual(expected);
        }
        expect(await compiled(`${a}[${b}]`), `${a}[${b}]`).toEqual(
          await reference(() => getIndex(operand(a), operand(b))),
        );
      }
      expect(await compiled(`-${a}`), `-${a}`).toEqual(await reference(() => unary('-', operand(a))));
    }
  });

  it('rule out text by its first character only where no number, date or time can start', () => {
    for (let code = 0; code < 0x3100; code++) {
      const c = String.fromCharCode(code);
      const space = /\s/.test(c);
      expect(asNumber(`${c}5`) !== null, `U+${code.toString(16)}`).toBe(space || /[\d+\-.]/.test(c));
      expect(parseDate(`${c}1.2.2020`) !== null, `U+${code.toString(16)}`).toBe(space || /[0-2]/.test(c));
      expect(parseTime(`${c}1:30`) !== null, `U+${code.toString(16)}`).toBe(space || /[0-2]/.test(c));
    }
  });
});

describe('the synchronous path and the general path', () => {
  it('give the same values and errors for any expression', async () => {
    await fc.assert(
      fc.asyncProperty(expression, async (source) => {
        const fast = compileExpression(source);
        expect(fast.callsHost).toBe(false);
        const sync = await outcome(() => fast.evaluateSync(options(first)));
        expect(await outcome(() => fast.evaluate(options(first)))).toEqual(sync);
        // An in-flow call in the branch not taken sends the same expression down the general path.
        const prefix = 'if(True, ';
        const general = compileExpression(`${prefix}${source}, message(1, 'x'))`);
        expect(general.callsHost).toBe(true);
        expect(await outcome(() => general.evaluate(options(first)), prefix.length)).toEqual(sync);
      }),
      { numRuns: 400 },
    );
  });

  it('give the same variables and errors for any formula line', async () => {
    await fc.assert(
      fc.asyncProperty(expression, expression, async (a, b) => {
        const source = `x = ${a}\nl[0] = ${b}\ny = x`;
        const runs = [];
        for (const formula of [source, `${source}\nif(False, message(1, 'x'))`]) {
          const store = stored(first);
          const { errors } = await compileFormula(formula).run({ ...options(first), store });
          runs.push({ errors, x: store.get('x'), l: store.get('l'), y: store.get('y') });
        }
        expect(runs[1]).toEqual(runs[0]);
      }),
      { numRuns: 300 },
    );
  });

  it('never answers with a stale variable: each run reads what the store holds now', async () => {
    await fc.assert(
      fc.asyncProperty(expression, async (source) => {
        const compiled = compileExpression(source);
        for (const vars of [first, second, first, {}, second]) {
          const fresh = await outcome(() => compileExpression(source).evaluateSync(options(vars)));
          expect(await outcome(() => compiled.evaluateSync(options(vars)))).toEqual(fresh);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('the synchronous path', () => {
  it('re-reads a variable changed between evaluations', () => {
    const compiled = compileExpression("n * 2 + len(l) + m['k']");
    const vars = new Map([
      ['n', '2'],
      ['l', '[1]'],
      ['m', '{"k":1}'],
    ]);
    const run = () =>
      compiled.evaluateSync({ store: { get: (k) => vars.get(k), set: () => {} }, plan: 'free' });
    expect(run()).toBe(6);
    vars.set('n', '5');
    expect(run()).toBe(12);
    vars.set('l', '[1, 2, 3]');
    vars.set('m', '{"k":10}');
    expect(run()).toBe(23);
    // Text times a number is an error (repeat() repeats text).
    vars.set('n', 'five');
    expect(run).toThrow('cannot use * with the text "five", which is not a number');
  });

  it('reads each variable from the store once per run', async () => {
    const reads: string[] = [];
    const store = {
      get: (name: string) => {
        reads.push(name);
        return '2';
      },
      set: () => {},
    };
    const compiled = compileExpression('a * a + b + if(a > 1, a, b)');
    for (let run = 1; run <= 2; run++) {
      expect(compiled.evaluateSync({ store, plan: 'free' })).toBe(8);
      expect(reads.sort()).toEqual(run === 1 ? ['a', 'b'] : ['a', 'a', 'b', 'b']);
    }
    reads.length = 0;
    await compileFormula('x = a + a + b\ny = a').run({ store, plan: 'free' });
    expect(reads.sort()).toEqual(['a', 'b']);
  });

  it('hands out lists and dicts the caller may change without changing later results', () => {
    const compiled = compileExpression("order['items']");
    const opts = options({ order: '{"items":[{"sku":"tea"}]}' });
    const items = compiled.evaluateSync(opts) as Value[];
    (items[0] as Map<string, Value>).set('sku', 'changed');
    items.push('extra');
    expect(compiled.evaluateSync(opts)).toEqual([new Map([['sku', 'tea']])]);
  });

  it('still enforces the text and list limits, with the position', async () => {
    const long = { a: 'x'.repeat(60_000) };
    const tooLong = `a text longer than ${LIMITS.stringLength} characters`;
    expect(await outcome(() => compileExpression('1 + (a + a)').evaluateSync(options(long)))).toEqual({
      error: tooLong,
      line: 1,
      column: 5,
    });
    expect(await outcome(() => compileExpression("'x' + a + a").evaluateSync(options(long)))).toEqual({
      error: tooLong,
      line: 1,
      column: 1,
    });
    expect(await outcome(() => compileExpression("repeat('x', 200000)").evaluateSync(options({})))).toEqual({
      error: tooLong,
      line: 1,
      column: 1,
    });
    expect(await outcome(() => compileExpression('[1] * 20000').evaluateSync(options({})))).toEqual({
      error: `a list longer than ${LIMITS.listLength} items`,
      line: 1,
      column: 1,
    });
  });

  it('refuses expressions with in-flow calls, which only evaluate() can run', async () => {
    const compiled = compileExpression("get_block_name_by_id(1) + '!'");
    expect(() => compiled.evaluateSync(options({}))).toThrow(/use evaluate\(\)/);
    expect(await compiled.evaluate(options({}))).toBe('from the host!');
  });

  it('works when a store evaluates the same expression while it runs', () => {
    const compiled = compileExpression('a + b');
    const inner = { get: (k: string) => ({ a: '1', b: '2' })[k], set: () => {} };
    const outer = {
      get: (k: string) => (k === 'a' ? String(compiled.evaluateSync({ store: inner, plan: 'free' })) : '10'),
      set: () => {},
    };
    expect(compiled.evaluateSync({ store: outer, plan: 'free' })).toBe(13);
    expect(compiled.evaluateSync({ store: inner, plan: 'free' })).toBe(3);
  });
});

describe('the general path', () => {
  it('stops a run at the step limit, counting the replays of in-flow calls', async () => {
    // Each in-flow call replays the line: 50 runs of a line of over 4,000 steps.
    const names = Array.from({ length: 4200 }, () => 'a').join(',');
    const calls = Array.from({ length: LIMITS.hostCalls - 1 }, () => 'get_block_name_by_id(1)').join(',');
    const store = stored({ a: '1' });
    const { errors } = await compileFormula(`x = [${names}] + [${calls}]\ny = 1`).run({
      ...options({}),
      store,
    });
    expect(errors.map((e) => e.message)).toEqual([`the formula took more than ${LIMITS.steps} steps`]);
    expect(store.get('x')).toBe(`Error: the formula took more than ${LIMITS.steps} steps`);
    expect(store.get('y')).toBeUndefined();
  });
});

describe('a store with a change signal', () => {
  /** A store with the optional change signal (a fresh version on every write) that lists its reads. */
  function versioned(vars: Record<string, string>) {
    const map = new Map(Object.entries(vars));
    const reads: string[] = [];
    const store: VariableStore & { version: object } = {
      version: {},
      get(name) {
        reads.push(name);
        return map.get(name);
      },
      set(name, value) {
        if (value === null) map.delete(name);
        else map.set(name, value);
        store.version = {};
      },
    };
    return { store, reads, map };
  }
  const using = (store: VariableStore): RunOptions => ({ ...options({}), store });
  /** The same variables without the signal, read afresh by a newly compiled expression. */
  const freshly = (source: string, map: Map<string, string>) =>
    outcome(() => compileExpression(source).evaluateSync(using({ get: (k) => map.get(k), set: () => {} })));

  it('is read again only after its version changed', async () => {
    const { store, reads } = versioned({ a: '2', b: '3', l: '[1,2]' });
    const expression = compileExpression('a * b + len(l)');
    expect(expression.evaluateSync(using(store))).toBe(8);
    expect(reads.sort()).toEqual(['a', 'b', 'l']);
    reads.length = 0;
    expect(expression.evaluateSync(using(store))).toBe(8);
    expect(reads).toEqual([]);
    store.set('a', '5');
    expect(expression.evaluateSync(using(store))).toBe(17);
    expect(reads.sort()).toEqual(['a', 'b', 'l']);
  });

  it("gives the formula's own writes to its later lines and later runs, and to expressions", async () => {
    const { store, map } = versioned({ n: '1', l: '[0]' });
    const formula = compileFormula('x = n + 1\nn = x * 2\nl[0] = n\ny = l[0] + n');
    const doubled = compileExpression('n * 2 + l[0]');
    expect(doubled.evaluateSync(using(store))).toBe(2);
    for (const [x, n] of [
      [2, 4],
      [5, 10],
      [11, 22],
    ]) {
      expect((await formula.run(using(store))).errors).toEqual([]);
      expect(Object.fromEntries(map)).toEqual({ n: `${n}`, x: `${x}`, l: `[${n}]`, y: `${2 * n}` });
      expect(doubled.evaluateSync(using(store))).toBe(3 * n);
    }
  });

  it('gives the lines after an in-flow call what the call wrote', async () => {
    const { store, map } = versioned({ a: '1' });
    const host = {
      call: async (_: string, [, name, value]: Value[]) => {
        store.set(String(name), String(value));
        return true;
      },
    };
    const formula = compileFormula("x = a\nset_client_var(1, 'a', 5)\ny = a + x");
    expect((await formula.run({ ...using(store), host })).errors).toEqual([]);
    expect(Object.fromEntries(map)).toEqual({ a: '5', x: '1', y: '6' });
  });

  it('never answers stale: two stores used alternately, one without the signal, writes in between', async () => {
    const names = Object.keys(first).concat('missing');
    const texts = [...Object.values(first), ...Object.values(second)];
    await fc.assert(
      fc.asyncProperty(
        expression,
        fc.array(fc.tuple(fc.nat(2), fc.constantFrom(...names), fc.constantFrom(...texts)), { maxLength: 5 }),
        async (source, writes) => {
          const compiled = compileExpression(source);
          const signalled = [versioned(first), versioned(second)];
          const plain = versioned(first);
          const stores = [
            ...signalled.map((v) => ({ store: v.store as VariableStore, map: v.map })),
            { store: { get: plain.store.get, set: plain.store.set }, map: plain.map },
          ];
          for (const [which, name, text] of [...writes, [0, 'n', '42'] as const]) {
            for (const k of [0, 1, 2, 0, 1]) {
              const { store, map } = stores[k];
              expect(await outcome(() => compiled.evaluateSync(using(store)))).toEqual(
                await freshly(source, map),
              );
            }
            stores[which].store.set(name, text);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('stays right when reading a variable writes another', () => {
    const compiled = compileExpression('a + b');
    const { store: base } = versioned({ a: '3', b: '0' });
    let reads = 0;
    const store: VariableStore = {
      get version() {
        return base.version;
      },
      get(name) {
        if (name === 'a') base.set('b', `${10 * ++reads}`);
        return base.get(name);
      },
      set: base.set,
    };
    for (const expected of [13, 23, 33]) expect(compiled.evaluateSync(using(store))).toBe(expected);
  });

  it('stays right when a read evaluates the same expression on another store', () => {
    const compiled = compileExpression('a + b');
    const inner = versioned({ a: '1', b: '2' });
    const outer = versioned({ b: '10' });
    const store: VariableStore = {
      get version() {
        return outer.store.version;
      },
      get: (name) =>
        name === 'a' ? String(compiled.evaluateSync(using(inner.store))) : outer.store.get(name),
      set: outer.store.set,
    };
    for (const b of ['10', '20']) {
      outer.store.set('b', b);
      expect(compiled.evaluateSync(using(store))).toBe(3 + Number(b));
      expect(compiled.evaluateSync(using(inner.store))).toBe(3);
      inner.store.set('b', '2');
    }
  });

  it('leaves system variables to the host: they are read every run, as they change without a write', () => {
    const { store: base } = versioned({ x: '!' });
    let time = '09:05';
    const store: VariableStore = {
      get version() {
        return base.version;
      },
      get: (name) => (name === 'current_time' ? time : base.get(name)),
      set: base.set,
    };
    const compiled = compileExpression('concat(current_time, x)');
    expect(compiled.evaluateSync(using(store))).toBe('09:05!');
    time = '09:06';
    expect(compiled.evaluateSync(using(store))).toBe('09:06!');
  });
});

describe('numeric parts (arithmetic and comparisons of numbers, without values in between)', () => {
  const versioned = (vars: Record<string, string>) => {
    const map = new Map(Object.entries(vars));
    const store: VariableStore & { version: object } = {
      version: {},
      get: (name) => map.get(name),
      set(name, value) {
        if (value === null) map.delete(name);
        else map.set(name, value);
        store.version = {};
      },
    };
    return store;
  };
  const using = (store: VariableStore): RunOptions => ({ ...options({}), store });
  const sources = [
    'a * b * (1 - c) + 4.99',
    'a * b + c',
    '(a - b) * c',
    'a / (b - b)',
    '1 / (a * 10)',
    '-(a * b) - c',
    '-a + 1',
    'a * b > c',
    'a * 2 == b',
    'a < b and b >= c',
    'a != b',
    // if() of numbers, a name's text staying text in a branch.
    'if(a > b, if(a > 10, 3, 2), 1)',
    'if(a, 1, 2)',
    'if(a - b, c * 2, 0.5)',
    'if(a == b, 1, 2) + if(a != 0, 1, 0)',
    'if(a <= b, a * 1, b * 1)',
    'if(a >= b, -a, a)',
    'if(a < b, 1)',
    // Math built-ins.
    'round(sqrt(a) * 2, 2) + abs(a - b)',
    'round(a, b)',
    'round(a) - floor(a / b) + ceil(c)',
    'sqrt(a - b)',
    'abs(-a) * 2',
  ];
  const values = [
    '2',
    '0',
    '-3',
    '2.5',
    ' 4 ',
    '1,5',
    '1 500',
    '007',
    '1e308',
    '-1e308',
    '1e400',
    'abc',
    '11.12.2021',
  ];
  const others = ['10:30', 'True', '[1,2]', '{"k":1}', '123456789012345678', '123456789012345679', ''];

  it('give what the general path gives, for every operand, as the store changes between runs', async () => {
    const store = versioned({});
    const versionless = stored({});
    const prefix = 'if(True, ';
    for (const source of sources) {
      const fast = compileExpression(source);
      const general = compileExpression(`${prefix}${source}, message(1, 'x'))`);
      for (const a of [...values, ...others, null]) {
        for (const b of values) {
          // The same compiled expression on one store, its variables changed between runs.
          store.set('a', a);
          store.set('b', b);
          store.set('c', b === '2' ? 'abc' : '3');
          versionless.set('a', a);
          versionless.set('b', b);
          versionless.set('c', b === '2' ? 'abc' : '3');
          const expected = await outcome(() => general.evaluate(using(store)), prefix.length);
          expect(await outcome(() => fast.evaluateSync(using(store))), `${source} a=${a} b=${b}`).toEqual(
            expected,
          );
          // Again, unchanged: a numeric way that failed is not tried again, with the same answer.
          expect(await outcome(() => fast.evaluateSync(using(store))), `${source} a=${a} b=${b}`).toEqual(
            expected,
          );
          expect(
            await outcome(() => fast.evaluateSync(using(versionless))),
            `${source} a=${a} b=${b}`,
          ).toEqual(expected);
        }
      }
    }
  });

  it('give what the general path gives for if() of a comparison, every operator, written or computed branches', async () => {
    const store = versioned({});
    const prefix = 'if(True, ';
    const ifs = ['==', '!=', '<', '>', '<=', '>='].flatMap((op) => [
      `if(a ${op} b, 1, 2)`,
      `if(a * 1 ${op} b, 1.5, -2)`,
      `if(a ${op} 0, if(b ${op} a, 3, 4), 5)`,
      `if(a ${op} b, a * 2, 0) + if(b ${op} a, 1, b / 2)`,
    ]);
    for (const source of ifs) {
      const fast = compileExpression(source);
      const general = compileExpression(`${prefix}${source}, message(1, 'x'))`);
      for (const a of [...values, '-1e400', '0.1', '(-0)', null]) {
        for (const b of [...values, '-1e400', '-0', '0.3']) {
          store.set('a', a);
          store.set('b', b);
          const expected = await outcome(() => general.evaluate(using(store)), prefix.length);
          expect(await outcome(() => fast.evaluateSync(using(store))), `${source} a=${a} b=${b}`).toEqual(
            expected,
          );
        }
      }
    }
  });

  it('read no name the general path would not, where a part fails before its right operand', async () => {
    const prefix = 'if(True, ';
    const sources = [
      '(a * b) + c',
      '(a - b) * (c + a)',
      'c / (a * b)',
      '(a * b) / c - 1',
      '1 - (a + b) * c',
      'if(a * b > c, 1, 2)',
      'round(a * b, 2) + c',
    ];
    const valuesOf = ['2', '0', 'x', '1e400', '-1e308', '11.12.2021', '10:30', '', null];
    for (const source of sources) {
      const fast = compileExpression(source);
      const general = compileExpression(`${prefix}${source}, message(1, 'x'))`);
      for (const a of valuesOf) {
        for (const b of valuesOf) {
          const vars = { a, b, c: '3' };
          const reading = (reads: string[]): VariableStore => ({
            get: (name) => {
              reads.push(name);
              return vars[name as keyof typeof vars] ?? undefined;
            },
            set: () => {},
          });
          const generalReads: string[] = [];
          const fastReads: string[] = [];
          const expected = await outcome(() => general.evaluate(using(reading(generalReads))), prefix.length);
          const got = await outcome(() => fast.evaluateSync(using(reading(fastReads))));
          expect(got, `${source} a=${a} b=${b}`).toEqual(expected);
          expect(new Set(fastReads), `${source} a=${a} b=${b}`).toEqual(new Set(generalReads));
        }
      }
    }
  });

  it('say where a number went wrong, even when a later step would hide it', () => {
    const run = (source: string, vars: Record<string, string>) =>
      outcome(() => compileExpression(source).evaluateSync(using(versioned(vars))));
    // 1 / Infinity would be 0: the overflow inside is an error.
    return Promise.all([
      expect(run('1 / (a * 10)', { a: '1e308' })).resolves.toEqual({
        error: 'the result is too large',
        line: 1,
        column: 5,
      }),
      expect(run('price / (qty - 3)', { price: '10', qty: '3' })).resolves.toEqual({
        error: 'division by zero',
        line: 1,
        column: 1,
      }),
      expect(run('a * b + 1', { a: '2', b: 'x' })).resolves.toMatchObject({
        error: expect.stringContaining('cannot use * with the text "x"'),
      }),
      expect(run('a * 2 + s', { a: '1,5', s: 'abc' })).resolves.toEqual({ value: '3abc' }),
      // Texts of more digits than a number holds compare digit by digit.
      expect(run('a < b', { a: '123456789012345678', b: '123456789012345679' })).resolves.toEqual({
        value: true,
      }),
      expect(run('a * 1 < b * 1', { a: '123456789012345678', b: '123456789012345679' })).resolves.toEqual({
        value: false,
      }),
    ]);
  });

  it('follow the store: a number, then text, then a number again', () => {
    const store = versioned({ a: '2', b: '3' });
    const expression = compileExpression('a * b + 1');
    expect(expression.evaluateSync(using(store))).toBe(7);
    store.set('a', 'x');
    expect(() => expression.evaluateSync(using(store))).toThrow('cannot use * with the text "x"');
    store.set('a', '4');
    expect(expression.evaluateSync(using(store))).toBe(13);
    store.set('b', '11.12.2021');
    expect(() => expression.evaluateSync(using(store))).toThrow(FormulaError);
    store.set('b', null);
    // An unset variable is 0 in arithmetic.
    expect(expression.evaluateSync(using(store))).toBe(1);
  });
});

describe('numbers read in place from lists and dicts, and their lengths', () => {
  const sources = [
    "o['items'][0]['p'] * o['items'][0]['q'] + len(l)",
    "o['items'][1]['p'] * 2",
    "o['items'][2]['p'] + 1",
    "o['n'] * 1",
    'l[0] + l[5]',
    'l[1] * l[2] - len(o)',
    "len(o['items']) * 2",
    'len(s) + 1',
    'if(len(l) > 2, l[0] * 1, 0.5)',
  ];
  const firstVars = {
    o: '{"items":[{"p":4.5,"q":2},{"p":"12","q":1}],"n":null}',
    l: '[1,2,3]',
    s: 'hello',
  };
  // The same names, other values: shorter, longer, of other types.
  const otherVars = [
    { o: '{"items":[{"p":1,"q":-3},{"p":2},{"p":1e308}],"n":"7"}', l: '[5]', s: '[1]' },
    { o: '[1,2]', l: '{"0":1}', s: 'h\u00e9llo' },
    { o: '{"items":[{"p":1e308,"q":10}],"n":2}', l: '[1,"2",3,4,5,6]' },
  ];

  it('give what the general path gives, as the store changes between runs', async () => {
    const prefix = 'if(True, ';
    for (const source of sources) {
      const fast = compileExpression(source);
      const general = compileExpression(`${prefix}${source}, message(1, 'x'))`);
      // One store with the change signal, changed between runs, and stores without it.
      const map = new Map<string, string>();
      const store: VariableStore & { version: object } = {
        version: {},
        get: (name) => map.get(name),
        set: () => {},
      };
      for (const vars of [firstVars, ...otherVars, firstVars, {}] as Record<string, string>[]) {
        map.clear();
        for (const [k, v] of Object.entries(vars)) map.set(k, v);
        store.version = {};
        const expected = await outcome(() => general.evaluate(options(vars)), prefix.length);
        for (const opts of [
          { ...options({}), store },
          { ...options({}), store },
          options(vars),
          options(vars),
        ])
          expect(await outcome(() => fast.evaluateSync(opts)), `${source} ${JSON.stringify(vars)}`).toEqual(
            expected,
          );
      }
    }
  });
});

describe('chains of written keys and positions', () => {
  it('give what the general path gives, each index with its own position', async () => {
    const vars = { o: '{"items":[{"p":4.5,"s":"tea"},{"p":12}],"n":"7"}', l: '[[1,2],[3]]', s: 'hello' };
    const prefix = 'if(True, ';
    const sources = [
      "o['items'][1]['p']",
      "o['items'][0]['s'][1]",
      "o['items'][2]['p']",
      "o['items'][1]['missing']",
      "o['n'][0]",
      "o['items']['p']",
      'l[1][0]',
      'l[0][5]',
      'l[0][1][0]',
      "s[1]['x']",
      "o['items'][0]['p'] * o['items'][1]['p']",
    ];
    for (const source of sources) {
      const general = compileExpression(`${prefix}${source}, message(1, 'x'))`);
      const expected = await outcome(() => general.evaluate(options(vars)), prefix.length);
      expect(await outcome(() => compileExpression(source).evaluateSync(options(vars))), source).toEqual(
        expected,
      );
    }
    expect(compileExpression("o['items'][1]['p']").evaluateSync(options(vars))).toBe(12);
    await expect(
      outcome(() => compileExpression("o['items'][2]['p']").evaluateSync(options(vars))),
    ).resolves.toEqual({ error: 'index 2 is out of range (2 items)', line: 1, column: 1 });
  });
});

describe('a reused run of a formula large enough to count its steps', () => {
  // Over CLOCK_EVERY nodes, without in-flow calls: steps counted, the clock looked at.
  const formula = () => compileFormula(`x = len([${Array(1500).fill('a').join(', ')}])`);

  it('starts its clock again every run', async () => {
    const compiled = formula();
    const store = stored({ a: '1' });
    const now = vi.spyOn(Date, 'now');
    try {
      for (const t of [1_000, 100_000, 200_000]) {
        now.mockReturnValue(t);
        expect((await compiled.run({ ...options({}), store })).errors).toEqual([]);
        expect(store.get('x')).toBe('1500');
      }
    } finally {
      now.mockRestore();
    }
  });

  it('stops at the time limit', async () => {
    const compiled = formula();
    const store = stored({ a: '1' });
    let t = 0;
    // Each look at the clock finds it five seconds later.
    const now = vi.spyOn(Date, 'now').mockImplementation(() => (t += 5_000));
    try {
      const { errors } = await compiled.run({ ...options({}), store });
      expect(errors.map((e) => e.message)).toEqual([`the formula ran longer than ${LIMITS.wallTimeMs} ms`]);
    } finally {
      now.mockRestore();
    }
  });
});
