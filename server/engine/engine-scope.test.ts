import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileExpression, compileFormula } from '@/lib/formula';
import { EngineScope } from './engine-scope';
import { EngineHarness } from './testing/engine-harness';

/**
 * The engine's variables are the formulas' store; its change signal lets a compiled formula
 * (cached across events) skip reading what has not changed, so it must change with every write.
 */
describe("the engine's variables as a formula store", () => {
  const system = { block: '1' };
  const scope = () =>
    new EngineScope({ deal: { n: '1' }, client: { c: 'x' }, project: { p: 'P' } }, (name) =>
      name === 'message_id' ? system.block : undefined,
    );

  it('changes its version on every write and on discarding the deal, never on reading', () => {
    const s = scope();
    const seen = [s.version];
    s.get('n');
    s.takeChanges();
    expect(s.version).toBe(seen[0]);
    s.set('n', '2');
    seen.push(s.version);
    s.set('client.c', 'y');
    seen.push(s.version);
    s.discardDeal();
    seen.push(s.version);
    expect(new Set(seen).size).toBe(4);
    // A refused write changes nothing.
    expect(() => s.set('message_id', '5')).toThrow(/system variable/);
    expect(s.version).toBe(seen[3]);
  });

  it('gives a compiled expression every change, and system variables as they are now', () => {
    const s = scope();
    const expression = compileExpression("concat(n, '|', c, '|', p, '|', message_id)");
    const evaluate = () => expression.evaluateSync({ store: s, plan: 'business' });
    system.block = '1';
    expect(evaluate()).toBe('1|x|P|1');
    system.block = '2';
    expect(evaluate()).toBe('1|x|P|2');
    s.set('client.c', 'y');
    expect(evaluate()).toBe('1|y|P|2');
    s.set('c', 'deal');
    expect(evaluate()).toBe('1|deal|P|2');
    s.discardDeal();
    expect(evaluate()).toBe('|y|P|2');
    // Another event's variables, through the same compiled expression.
    expect(expression.evaluateSync({ store: scope(), plan: 'business' })).toBe('1|x|P|2');
  });

  it('gives a compiled formula its own writes, run after run', async () => {
    const s = scope();
    const formula = compileFormula('n = n + 1\nclient.c = c + n');
    for (const [n, c] of [
      ['2', 'x2'],
      ['3', 'x23'],
    ]) {
      expect((await formula.run({ store: s, plan: 'business' })).errors).toEqual([]);
      expect([s.get('n'), s.get('client.c')]).toEqual([n, c]);
    }
  });
});

describe('one formula in several blocks of one event', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await EngineHarness.create();
  });
  afterAll(() => h?.close());

  it('sees what the block before it wrote, and each client its own variables', async () => {
    const counting = (id: number) => ({
      id,
      kind: id === 1 ? ('start' as const) : ('not_state' as const),
      text: '#{n}',
      formula: 'n = if(n, n, 0) + 1',
      ...(id === 1 ? { trigger: { alternatives: 'go', match: 'exact' as const } } : {}),
    });
    const bot = await h.bot({
      blocks: [counting(1), counting(2), counting(3)],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'timer', timer: { delay: 0 } },
        { id: 2, from: 2, to: 3, kind: 'timer', timer: { delay: 0 } },
      ],
    });
    expect(await bot.say('go')).toEqual(['1', '2', '3']);
    expect(await bot.say('go')).toEqual(['4', '5', '6']);
    expect(await bot.client('other').say('go')).toEqual(['1', '2', '3']);
  });
});
