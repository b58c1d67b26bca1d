import type { Rect } from '@xyflow/react';

/** What the minimap needs of a node: its place, its size once known, and its colour. */
export interface MinimapNode {
  position: { x: number; y: number };
  measured?: { width?: number; height?: number };
  width?: number;
  height?: number;
  initialWidth?: number;
  initialHeight?: number;
  /** Being dragged: drawn apart from the still blocks (see splitMoving). */
  dragging?: boolean;
}

export interface MinimapDrawing {
  /** One SVG path per colour, every block of that colour a rectangle in it. */
  paths: { color: string; d: string }[];
  /** The rectangle the drawn nodes cover; null for none. */
  bounds: Rect | null;
}

/**
 * The minimap's blocks as one path per colour. A node's size is React Flow's: measured, else
 * set, else its initial estimate; a node with none yet is left out, as React Flow's MiniMap does.
 */
export function minimapDrawing<N extends MinimapNode>(
  nodes: readonly N[],
  colorOf: (node: N) => string,
): MinimapDrawing {
  const byColor = new Map<string, string[]>();
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const node of nodes) {
    const width = node.measured?.width ?? node.width ?? node.initialWidth;
    const height = node.measured?.height ?? node.height ?? node.initialHeight;
    if (!width || !height) continue;
    const { x, y } = node.position;
    const color = colorOf(node);
    let parts = byColor.get(color);
    if (!parts) {
      parts = [];
      byColor.set(color, parts);
    }
    parts.push(`M${x},${y}h${width}v${height}h${-width}z`);
    left = Math.min(left, x);
    top = Math.min(top, y);
    right = Math.max(right, x + width);
    bottom = Math.max(bottom, y + height);
  }
  return {
    paths: [...byColor].map(([color, parts]) => ({ color, d: parts.join('') })),
    bounds: byColor.size ? { x: left, y: top, width: right - left, height: bottom - top } : null,
  };
}

/**
 * The nodes being dragged, and the others: `previousStill` itself when the others are the very
 * nodes it holds (a drag frame replaces only the dragged nodes), so their drawing is kept, and
 * so is the minimap's layer that shows it: only the few moving blocks are drawn again.
 */
export function splitMoving<N extends MinimapNode>(
  nodes: readonly N[],
  previousStill: readonly N[],
): { still: readonly N[]; moving: N[] } {
  const still: N[] = [];
  const moving: N[] = [];
  for (const node of nodes) (node.dragging ? moving : still).push(node);
  const same = still.length === previousStill.length && still.every((node, i) => node === previousStill[i]);
  return { still: same ? previousStill : still, moving };
}
