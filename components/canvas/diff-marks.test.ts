import { describe, expect, it } from 'vitest';
import { diffMarksCss } from './diff-marks';

describe('diffMarksCss', () => {
  it('outlines added blocks green and changed ones amber, by id, with a label each', () => {
    const css = diffMarksCss({
      label: '',
      onDraft: true,
      added: [4],
      changed: [2, 7],
      removed: [],
      arrows: { added: [], changed: [] },
    });
    expect(css).toContain('[data-block-id="4"]{outline:3px solid #10b981');
    expect(css).toContain('[data-block-id="2"],[data-block-id="7"]{outline:3px solid #d97706');
    expect(css).toContain('[data-block-id="7"]::after{content:"changed"');
    expect(css).toContain('[data-block-id="4"]::after{content:"added"');
  });

  it('draws added and changed arrows in the same colours, line and label', () => {
    const css = diffMarksCss({
      label: '',
      onDraft: true,
      added: [],
      changed: [],
      removed: [],
      arrows: { added: [5], changed: [] },
    });
    expect(css).toContain('.react-flow__edge[data-id="a5"] .react-flow__edge-path{stroke:#10b981!important');
    expect(css).toContain('[data-testid="arrow-5"]{outline:2px solid #10b981');
    expect(css).not.toContain('#d97706');
  });

  it('writes no rule for a kind with no blocks', () => {
    expect(
      diffMarksCss({
        label: '',
        onDraft: true,
        added: [],
        changed: [3],
        removed: [],
        arrows: { added: [], changed: [] },
      }),
    ).not.toContain('added');
    expect(
      diffMarksCss({
        label: '',
        onDraft: true,
        added: [],
        changed: [],
        removed: [],
        arrows: { added: [], changed: [] },
      }),
    ).toBe('');
  });
});
