import { getViewportForBounds, type Rect, type Viewport } from '@xyflow/react';
import type { Block } from '@/lib/schema';
import { FAR_ZOOM } from './far-zoom';
import { openingBlock } from './opening-block';
import { DEFAULT_COMMENT_SIZE } from './schema-ops';

/** A block's usual size before React Flow has measured it (blocks size themselves). */
export const NODE_WIDTH = 224;
export const NODE_HEIGHT = 96;

const sizeOf = (block: Block) =>
  block.kind === 'comment'
    ? (block.size ?? DEFAULT_COMMENT_SIZE)
    : { width: NODE_WIDTH, height: NODE_HEIGHT };

/** The rectangle the blocks cover, from their positions and usual sizes; null for none. */
export function blocksBounds(blocks: readonly Block[]): Rect | null {
  return nodesBounds(blocks.map((block) => ({ position: block.position, ...sizeOf(block) })));
}

/** What nodesBounds reads of a React Flow node. */
interface SizedNode {
  position: { x: number; y: number };
  width?: number;
  height?: number;
  measured?: { width?: number; height?: number };
}

/**
 * The rectangle the canvas's nodes cover, each at its measured size, or at the usual size while
 * it is not measured (a big bot's blocks never on screen, a just imported bot's); null for none.
 */
export function nodesBounds(nodes: readonly SizedNode[]): Rect | null {
  if (!nodes.length) return null;
  let [left, top, right, bottom] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -Infinity, -Infinity];
  for (const { position, width, height, measured } of nodes) {
    left = Math.min(left, position.x);
    top = Math.min(top, position.y);
    right = Math.max(right, position.x + (measured?.width ?? width ?? NODE_WIDTH));
    bottom = Math.max(bottom, position.y + (measured?.height ?? height ?? NODE_HEIGHT));
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** Room around the bot when it is fitted, as a share of the pane (React Flow's fitView padding). */
export const FIT_PADDING = 0.1;

/**
 * The viewport fitting `bounds` into a pane of `width` × `height`, as React Flow's fitView does;
 * zoom 1 at the origin for none. The canvas opens on it (see openingView) rather than on React
 * Flow's default zoom of 1, so a big bot's first render is already the light, zoomed-out one.
 */
export function fittingViewport(
  bounds: Rect | null,
  width: number,
  height: number,
  zoom: { min: number; max: number },
): Viewport {
  if (!bounds || width <= 0 || height <= 0) return { x: 0, y: 0, zoom: 1 };
  return getViewportForBounds(bounds, width, height, zoom.min, zoom.max, FIT_PADDING);
}

/** The view of a `width` × `height` pane at `zoom` with the flow point `at` in its middle. */
export function centredViewport(
  at: { x: number; y: number },
  width: number,
  height: number,
  zoom: number,
): Viewport {
  return { x: width / 2 - at.x * zoom, y: height / 2 - at.y * zoom, zoom };
}

/**
 * The least zoom the canvas opens at: blocks are drawn in full from here (FAR_ZOOM); fitted
 * further out, a big bot is unreadable dots, and every one of its blocks would be rendered.
 */
export const OPENING_FLOOR_ZOOM = FAR_ZOOM;
/** Room (screen px) kept between the bot's edge and the pane's when a big bot opens. */
const OPENING_MARGIN = 40;

export interface OpeningView {
  viewport: Viewport;
  /** Whether the view shows the whole bot (React Flow then refits it once it has measured it). */
  fitted: boolean;
}

/**
 * Where the canvas opens: fitted to the whole bot when that is readable;
 * otherwise at OPENING_FLOOR_ZOOM, centred on the opening block (see openingBlock), moved
 * towards the inside of the bot so the view is not half empty when that block is at its edge.
 * Then only the blocks in view are rendered; Zoom to fit and the minimap still show the whole.
 */
export function openingView(
  blocks: readonly Block[],
  width: number,
  height: number,
  zoom: { min: number; max: number },
  focusId: number | null = null,
): OpeningView {
  const bounds = blocksBounds(blocks);
  const fit = fittingViewport(bounds, width, height, zoom);
  const focus = openingBlock(blocks, focusId);
  if (!bounds || !focus || fit.zoom >= OPENING_FLOOR_ZOOM) return { viewport: fit, fitted: true };
  const z = OPENING_FLOOR_ZOOM;
  const size = sizeOf(focus);
  const margin = OPENING_MARGIN / z;
  const left = viewStart(focus.position.x + size.width / 2, bounds.x, bounds.width, width / z, margin);
  const top = viewStart(focus.position.y + size.height / 2, bounds.y, bounds.height, height / z, margin);
  return { viewport: { x: -left * z, y: -top * z, zoom: z }, fitted: false };
}

/**
 * One axis of the view (flow units): `span` long, centred on `centre`, but kept inside the
 * bot's extent (`start`, `size`, plus `margin`) where the bot is longer than the view, and
 * centred on the bot where it is not.
 */
function viewStart(centre: number, start: number, size: number, span: number, margin: number): number {
  const [low, high] = [start - margin, start + size + margin];
  if (high - low <= span) return (low + high - span) / 2;
  return Math.min(Math.max(centre - span / 2, low), high - span);
}
