import { describe, expect, it } from 'vitest';
import { coverageCss } from './coverage-marks';
import { waitParts, waitText } from './wait-units';

describe('coverageCss', () => {
  it('fades every block and arrow, then restores the covered ones by id', () => {
    const css = coverageCss({ blocks: [1, 3], arrows: [2] });
    const lines = css.split('\n');
    expect(lines[0]).toBe('[data-block-id]:where(:not([data-kind="comment"])){opacity:.45}');
    expect(css).toContain('[data-block-id="1"],[data-block-id="3"]{opacity:1}');
    expect(css).toContain('content:"not covered"');
    expect(css).toContain('[data-block-id="1"]::before,[data-block-id="3"]::before{content:"covered"');
    expect(css).toContain('.react-flow__edge[data-id="a2"] .react-flow__edge-path{stroke-opacity:1');
    expect(css).toContain('.react-flow__edgelabel-renderer [data-testid="arrow-2"]{opacity:1}');
    // The covered rules come after the general ones, which they override.
    expect(css.indexOf('{opacity:1}')).toBeGreaterThan(css.indexOf('{opacity:.45}'));
  });

  it('marks everything not covered when a run passed through nothing', () => {
    const css = coverageCss({ blocks: [], arrows: [] });
    expect(css).toContain('not covered');
    expect(css).not.toContain('"covered"');
    expect(css).not.toContain('undefined');
    expect(css).not.toMatch(/^0$/m);
  });
});

describe('waitParts', () => {
  it('reads seconds in the largest whole unit', () => {
    expect(waitParts(86_400 * 2)).toEqual({ amount: 2, unit: 'days' });
    expect(waitParts(5_400)).toEqual({ amount: 90, unit: 'minutes' });
    expect(waitParts(7_200)).toEqual({ amount: 2, unit: 'hours' });
    expect(waitParts(45)).toEqual({ amount: 45, unit: 'seconds' });
    expect(waitText(3_600)).toBe('1 hour');
    expect(waitText(120)).toBe('2 minutes');
  });
});
