'use client';

import { useReactFlow } from '@xyflow/react';
import { useEffect } from 'react';
import type { ArrowFlowEdge, BotFlowNode } from './schema-to-flow';
import { nodeId } from './schema-to-flow';

/** Margin (px) a followed block keeps from the canvas edge before the view moves. */
const MARGIN = 40;

/**
 * Keeps the simulator's current block in view: when the client moves into a block that is
 * off-screen, the canvas pans to it (keeping the zoom), so designers can follow a conversation.
 * A block already visible is left where it is, so the view never jumps while one works.
 */
export function useFollowBlock(blockId: number | null, pane: React.RefObject<HTMLDivElement | null>) {
  const flow = useReactFlow<BotFlowNode, ArrowFlowEdge>();
  useEffect(() => {
    if (blockId === null || !pane.current) return;
    const node = flow.getInternalNode(nodeId(blockId));
    if (!node) return;
    const { x, y } = node.internals.positionAbsolute;
    const width = node.measured.width ?? 0;
    const height = node.measured.height ?? 0;
    const rect = pane.current.getBoundingClientRect();
    const topLeft = flow.flowToScreenPosition({ x, y });
    const bottomRight = flow.flowToScreenPosition({ x: x + width, y: y + height });
    const visible =
      topLeft.x >= rect.left + MARGIN &&
      topLeft.y >= rect.top + MARGIN &&
      bottomRight.x <= rect.right - MARGIN &&
      bottomRight.y <= rect.bottom - MARGIN;
    if (visible) return;
    void flow.setCenter(x + width / 2, y + height / 2, { zoom: flow.getZoom(), duration: 300 });
  }, [blockId, flow, pane]);
}
