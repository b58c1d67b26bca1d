import { edgeId } from '@/components/canvas/schema-to-flow';
import type { Coverage } from '@/lib/conversation-tests/results';

/**
 * The coverage overlay (docs/conversation-tests.md, "In the builder"): style rules by id, as the
 * version comparison's marks (components/canvas/diff-marks.tsx), so no node re-renders however
 * big the bot. Blocks and arrows the last run passed through keep their look with a small
 * "covered" tag; the others are faded and tagged "not covered". Comments never run: left alone.
 * `::before`, because the comparison's tag is the blocks' `::after`.
 */
export function coverageCss(coverage: Pick<Coverage, 'blocks' | 'arrows'>): string {
  const tag = (text: string, colour: string) =>
    `{content:"${text}";position:absolute;top:-20px;right:0;padding:0 6px;border-radius:4px;` +
    `background:${colour};color:#fff;font:600 10px/16px system-ui,sans-serif;text-transform:none;` +
    'letter-spacing:0;pointer-events:none}';
  // :where() keeps the general rules' specificity at one attribute, so the covered ids' rules,
  // written after them, win.
  const block = '[data-block-id]:where(:not([data-kind="comment"]))';
  const coveredBlocks = coverage.blocks.map((id) => `[data-block-id="${id}"]`).join(',');
  const edgePath = (id: number) => `.react-flow__edge[data-id="${edgeId(id)}"] .react-flow__edge-path`;
  const label = (id: number) => `.react-flow__edgelabel-renderer [data-testid="arrow-${id}"]`;
  return [
    `${block}{opacity:.45}`,
    `${block}::before${tag('not covered', '#64748b')}`,
    coveredBlocks && `${coveredBlocks}{opacity:1}`,
    coveredBlocks &&
      `${coverage.blocks.map((id) => `[data-block-id="${id}"]::before`).join(',')}${tag('covered', '#059669')}`,
    '.react-flow__edge .react-flow__edge-path{stroke-opacity:.3}',
    '.react-flow__edgelabel-renderer [data-testid^="arrow-"]{opacity:.45}',
    coverage.arrows.length &&
      `${coverage.arrows.map(edgePath).join(',')}{stroke-opacity:1;stroke:#059669!important;stroke-width:2.5px!important}`,
    coverage.arrows.length && `${coverage.arrows.map(label).join(',')}{opacity:1}`,
  ]
    .filter(Boolean)
    .join('\n');
}
