import { describe, expect, it } from 'vitest';
import type { Block } from '@/lib/schema';
import { FAR_ZOOM } from './far-zoom';
import { blocksBounds, initialViewport, NODE_HEIGHT, NODE_WIDTH } from './initial-viewport';
import { newBlock } from './schema-ops';

const zoom = { min: 0.05, max: 2 };

function grid(count: number, columns: number): Block[] {
  return Array.from({ length: count }, (_, i) =>
    newBlock('state', i + 1, { x: (i % columns) * 300, y: Math.floor(i / columns) * 260 }),
  );
}

describe('blocksBounds', () => {
  it('is null without blocks', () => {
    expect(blocksBounds([])).toBeNull();
  });

  it('covers every block at its usual size, and notes at their own size', () => {
    expect(blocksBounds([newBlock('state', 1, { x: 10, y: 20 })])).toEqual({
      x: 10,
      y: 20,
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
    });
    const note = { ...newBlock('comment', 3, { x: 500, y: 400 }), size: { width: 400, height: 300 } };
    const bounds = blocksBounds([
      newBlock('start', 1, { x: -100, y: -50 }),
      newBlock('state', 2, { x: 600, y: 0 }),
      note,
    ]);
    // Right edge: the note (500 + 400); bottom: the note (400 + 300).
    expect(bounds).toEqual({ x: -100, y: -50, width: 1000, height: 750 });
  });

  it('gives a note without a size the default note size', () => {
    expect(blocksBounds([newBlock('comment', 1, { x: 0, y: 0 })])).toEqual({
      x: 0,
      y: 0,
      width: 260,
      height: 140,
    });
  });
});

describe('initialViewport', () => {
  it('fits a big bot into the pane, zoomed far out', () => {
    const blocks = grid(1000, 40);
    const viewport = initialViewport(blocks, 1000, 800, zoom);
    expect(viewport.zoom).toBeLessThan(FAR_ZOOM);
    const bounds = blocksBounds(blocks);
    if (!bounds) throw new Error('no bounds');
    const left = bounds.x * viewport.zoom + viewport.x;
    const right = (bounds.x + bounds.width) * viewport.zoom + viewport.x;
    const top = bounds.y * viewport.zoom + viewport.y;
    const bottom = (bounds.y + bounds.height) * viewport.zoom + viewport.y;
    expect(left).toBeGreaterThanOrEqual(0);
    expect(right).toBeLessThanOrEqual(1000);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(bottom).toBeLessThanOrEqual(800);
    // Fitted: the wider side nearly fills the pane (10 % padding).
    expect(right - left).toBeGreaterThan(800);
  });

  it('opens a small bot near full size, never past the maximum zoom', () => {
    expect(initialViewport(grid(3, 3), 1000, 800, zoom).zoom).toBeGreaterThanOrEqual(FAR_ZOOM);
    expect(initialViewport([newBlock('state', 1, { x: 0, y: 0 })], 1000, 800, zoom).zoom).toBe(2);
  });

  it('keeps the minimum zoom for a bot too big to fit', () => {
    expect(initialViewport(grid(10_000, 200), 1000, 800, zoom).zoom).toBe(0.05);
  });

  it('opens at zoom 1 without blocks or before the pane has a size', () => {
    expect(initialViewport([], 1000, 800, zoom)).toEqual({ x: 0, y: 0, zoom: 1 });
    expect(initialViewport(grid(3, 3), 0, 0, zoom)).toEqual({ x: 0, y: 0, zoom: 1 });
  });
});
