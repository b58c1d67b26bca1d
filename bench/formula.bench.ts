/**
 * `npm run bench -- formula`: typical formulas compiled once and evaluated many times, beside
 * the same expressions in mathjs (compiled) and as plain JavaScript closures, in one run.
 * Prints figures; never fails on time.
 */
import { compile as mathCompile } from 'mathjs';
import { compileExpression, compileFormula } from '../lib/formula';

interface Case {
  name: string;
  ours: string;
  mathjs: string;
  js: (scope: Record<string, number>) => unknown;
}

const scope = { price: 120, qty: 3, discount: 0.15, a: 7, b: 5 };
const cases: Case[] = [
  {
    name: 'arithmetic',
    ours: 'price * qty * (1 - discount) + 4.99',
    mathjs: 'price * qty * (1 - discount) + 4.99',
    js: (s) => s.price * s.qty * (1 - s.discount) + 4.99,
  },
  {
    name: 'comparison',
    ours: 'price * qty > 300 and discount < 0.2',
    mathjs: 'price * qty > 300 and discount < 0.2',
    js: (s) => s.price * s.qty > 300 && s.discount < 0.2,
  },
  {
    name: 'if chain',
    ours: 'if(a > b, if(a > 10, 3, 2), 1)',
    mathjs: 'a > b ? (a > 10 ? 3 : 2) : 1',
    js: (s) => (s.a > s.b ? (s.a > 10 ? 3 : 2) : 1),
  },
  {
    name: 'functions',
    ours: 'round(sqrt(price) * 2, 2) + abs(a - b)',
    mathjs: 'round(sqrt(price) * 2, 2) + abs(a - b)',
    js: (s) => Math.round(Math.sqrt(s.price) * 2 * 100) / 100 + Math.abs(s.a - s.b),
  },
];

function perSecond(fn: () => unknown, minMs = 400): number {
  for (let i = 0; i < 2000; i++) fn();
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    for (let i = 0; i < 1000; i++) fn();
    n += 1000;
  }
  return n / ((performance.now() - start) / 1000);
}

async function perSecondAsync(fn: () => Promise<unknown>, minMs = 400): Promise<number> {
  for (let i = 0; i < 2000; i++) await fn();
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    for (let i = 0; i < 1000; i++) await fn();
    n += 1000;
  }
  return n / ((performance.now() - start) / 1000);
}

export async function run(): Promise<void> {
  const vars = Object.fromEntries(Object.entries(scope).map(([k, v]) => [k, String(v)]));
  const store = { get: (n: string) => vars[n], set: () => {} };
  const fmt = (n: number) => `${(n / 1e6).toFixed(2)} M/s`;
  console.log('case          ours         mathjs       plain JS     ours/mathjs  JS/ours');
  for (const c of cases) {
    const ours = compileExpression(c.ours);
    if (ours.diagnostics.length) throw new Error(`${c.name}: ${ours.diagnostics[0].message}`);
    const math = mathCompile(c.mathjs);
    const ourRate = await perSecondAsync(() => ours.evaluate({ store, plan: 'free' }));
    const mathRate = perSecond(() => math.evaluate({ ...scope }));
    const jsRate = perSecond(() => c.js(scope));
    console.log(
      `${c.name.padEnd(13)} ${fmt(ourRate).padEnd(12)} ${fmt(mathRate).padEnd(12)} ${fmt(jsRate).padEnd(12)} ${(ourRate / mathRate).toFixed(2).padEnd(12)} ${(jsRate / ourRate).toFixed(1)}`,
    );
  }
  const lines = Array.from(
    { length: 100 },
    (_, i) => `v${i} = if(price > ${i}, round(price * qty / (${i} + 1), 2), concat('x', '${i}'))`,
  ).join('\n');
  const parses = 200;
  const start = performance.now();
  for (let i = 0; i < parses; i++) compileFormula(lines);
  console.log(
    `parse + compile of a 100-line formula: ${((performance.now() - start) / parses).toFixed(3)} ms`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
