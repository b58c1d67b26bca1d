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
