import { getViewportForBounds, type Rect, type Viewport } from '@xyflow/react';
import type { Block } from '@/lib/schema';
import { DEFAULT_COMMENT_SIZE } from './schema-ops';

/** A block's usual size before React Flow has measured it (blocks size themselves). */
export const NODE_WIDTH = 224;
export const NODE_HEIGHT = 96;

/** The rectangle the blocks cover, from their positions and usual sizes; null for none. */
export function blocksBounds(blocks: readonly Block[]): Rect | null {
  if (!blocks.length) return null;
  let [left, top, right, bottom] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -Infinity, -Infinity];
  for (const block of blocks) {
    const size =
      block.kind === 'comment'
        ? (block.size ?? DEFAULT_COMMENT_SIZE)
        : { width: NODE_WIDTH, height: NODE_HEIGHT };
    left = Math.min(left, block.position.x);
    top = Math.min(top, block.position.y);
    right = Math.max(right, block.position.x + size.width);
    bottom = Math.max(bottom, block.position.y + size.height);
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * The viewport fitting the blocks into a pane of `width` × `height`, as React Flow's fitView
 * will once it has measured them. Opening on it, rather than on React Flow's default zoom of 1,
 * lets a big bot's first render already be the light, zoomed-out one.
 */
export function initialViewport(
  blocks: readonly Block[],
  width: number,
  height: number,
  zoom: { min: number; max: number },
): Viewport {
  const bounds = blocksBounds(blocks);
  if (!bounds || width <= 0 || height <= 0) return { x: 0, y: 0, zoom: 1 };
  return getViewportForBounds(bounds, width, height, zoom.min, zoom.max, 0.1);
}
