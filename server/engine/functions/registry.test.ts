import { describe, expect, expectTypeOf, it } from 'vitest';
import { catalogue, type InFlowName } from '@/lib/formula';
import { type InFlowHandler, inFlowHandlers, isInFlowName } from './registry';

// The type-level checks are enforced by `tsc` (npm test's type checking step); at run time
// expectTypeOf does nothing, so the same match is also checked on the values.
describe('the registry of in-flow functions', () => {
  it('has exactly the catalogue in-flow names as its keys, by type', () => {
    expectTypeOf<InFlowName>().not.toEqualTypeOf<string>();
    expectTypeOf<keyof typeof inFlowHandlers>().toEqualTypeOf<InFlowName>();
    expectTypeOf(inFlowHandlers).toExtend<Record<InFlowName, InFlowHandler>>();
  });

  it('has a handler for every in-flow function of the catalogue, and none else', () => {
    const inFlow = catalogue.filter((e) => e.host).map((e) => e.name);
    expect(inFlow.length).toBeGreaterThan(20);
    expect(Object.keys(inFlowHandlers).sort()).toEqual([...inFlow].sort());
    for (const name of inFlow) expect(typeof inFlowHandlers[name as InFlowName], name).toBe('function');
  });

  it('knows pure built-ins and unknown names are not in-flow functions', () => {
    expect(isInFlowName('message')).toBe(true);
    expect(isInFlowName('len')).toBe(false);
    expect(isInFlowName('toString')).toBe(false);
  });
});
