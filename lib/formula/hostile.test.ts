import path from 'node:path';
import { expect, it } from 'vitest';
import { runTsx } from '@/server/testing/run-tsx';
import { compileFormula } from './compile';
import { diagnose } from './diagnose';
import { HOSTILE } from './fixtures/hostile-formulas';
import { LIMITS } from './limits';

const runner = path.join(import.meta.dirname, 'fixtures', 'run-hostile.ts');

interface Printed {
  name: string;
  errors: string[];
  ms: number;
}

it('hostile formulas end in a formula error, in a process with a 256 MB heap that stays alive', async () => {
  const result = await runTsx(
    runner,
    [],
    {},
    { nodeFlags: ['--max-old-space-size=256'], timeoutMs: 100_000 },
  );
  expect(result.code, result.stderr).toBe(0);
  const printed = new Map(
    result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Printed)
      .map((p) => [p.name, p]),
  );
  for (const hostile of HOSTILE) {
    const errors = printed.get(hostile.name)?.errors;
    expect(errors, `${hostile.name}: not evaluated`).toBeDefined();
    expect(
      errors?.some((e) => hostile.error.test(e)),
      `${hostile.name}: ${JSON.stringify(errors).slice(0, 300)}`,
    ).toBe(true);
  }
}, 120_000);

it('the editor marks a statement nested or chained too deep to compile, at the statement', () => {
  const deep = HOSTILE.filter((h) => h.name.includes('3000'));
  expect(deep.length).toBeGreaterThan(5);
  for (const { source, error } of deep) {
    const found = diagnose(`a = 1\n${source}\nb = 2`);
    expect(found, source.slice(0, 40)).toHaveLength(1);
    expect(found[0].message).toMatch(error);
    expect(found[0].line).toBe(2);
  }
});

it('a chain of as many operators as the limit compiles and runs; one more is marked', async () => {
  const sum = (terms: number) => `v = ${Array(terms).fill('1').join(' + ')}`;
  expect(diagnose(sum(LIMITS.chainDepth + 2))[0]?.message).toMatch(/more than 500 operators/);
  const values = new Map<string, string>();
  const formula = compileFormula(sum(LIMITS.chainDepth + 1));
  expect(formula.diagnostics).toEqual([]);
  const { errors } = await formula.run({
    store: { get: (n) => values.get(n), set: (n, v) => void values.set(n, v ?? '') },
    plan: 'free',
  });
  expect(errors).toEqual([]);
  expect(values.get('v')).toBe(String(LIMITS.chainDepth + 1));
});

it('the step and memory budgets are per run: a formula using most of both runs again and again', async () => {
  const values = new Map<string, string>();
  const store = {
    get: (n: string) => values.get(n),
    set: (n: string, v: string | null) => void values.set(n, v ?? ''),
  };
  // About 20 MB of texts (110 of 90,000 characters) and over 100,000 steps (8 lists of 10,000 built, then compared).
  const texts = Array.from({ length: 110 }, (_, i) => `b + '${i}'`).join(', ');
  const formula = compileFormula(
    [
      "b = replace(replace(str([1]*9999), ',', ''), '1', 'bbbbbbbbb')",
      `n = len([${texts}])`,
      `e = ${Array.from({ length: 4 }, () => '[1]*10000 == [1]*10000').join(' and ')}`,
    ].join('\n'),
  );
  for (let run = 0; run < 3; run++) {
    expect((await formula.run({ store, plan: 'free' })).errors).toEqual([]);
    expect([values.get('n'), values.get('e')]).toEqual(['110', 'True']);
  }
});
