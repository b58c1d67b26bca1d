'use client';

import { useReactFlow } from '@xyflow/react';
import { useEffect } from 'react';
import { centredViewport } from './initial-viewport';
import { type Box, isHidden } from './placement';
import type { ArrowFlowEdge, BotFlowNode } from './schema-to-flow';
import { nodeId } from './schema-to-flow';
import type { ViewHeading } from './use-view-heading';

/** React Flow's panels floating over the canvas (minimap, zoom controls). */
const COVERS = '.react-flow__panel';

const boxOf = (r: DOMRect): Box => ({ x: r.left, y: r.top, width: r.width, height: r.height });

/**
 * Keeps a block in sight: when `blockId` becomes a block that is off-screen, past the canvas's
 * edge (the block editor opening beside it narrows the canvas) or under the minimap or the zoom
 * controls, the canvas pans to centre it (keeping the zoom). Used for the simulator's current
 * block and for the block being edited. A block already in sight is left where it is, so the
 * view never jumps while one works; `margin` (px) is how near the canvas's edge counts as in sight.
 */
export function useFollowBlock(
  blockId: number | null,
  pane: React.RefObject<HTMLDivElement | null>,
  margin: number,
  view: ViewHeading,
) {
  const flow = useReactFlow<BotFlowNode, ArrowFlowEdge>();
  useEffect(() => {
    if (blockId === null || !pane.current) return;
    const node = flow.getInternalNode(nodeId(blockId));
    if (!node) return;
    const { x, y } = node.internals.positionAbsolute;
    // A big bot's block that has not been on screen yet is not measured: its usual size then.
    const width = node.measured.width ?? node.initialWidth ?? 0;
    const height = node.measured.height ?? node.initialHeight ?? 0;
    const rect = pane.current.getBoundingClientRect();
    const topLeft = flow.flowToScreenPosition({ x, y });
    const bottomRight = flow.flowToScreenPosition({ x: x + width, y: y + height });
    const block = { ...topLeft, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y };
    const covers = [...pane.current.querySelectorAll(COVERS)].map((el) => boxOf(el.getBoundingClientRect()));
    if (!isHidden(block, boxOf(rect), covers, margin)) return;
    // From the pane's own size: React Flow learns of a resize (the editor opening) a frame later.
    const centre = { x: x + width / 2, y: y + height / 2 };
    view.setViewport(centredViewport(centre, rect.width, rect.height, view.zoom()), 300);
  }, [blockId, flow, pane, margin, view]);
}
