import { describe, expect, it } from 'vitest';
import type { Block } from '@/lib/schema';
import { FAR_ZOOM } from './far-zoom';
import {
  blocksBounds,
  centredViewport,
  fittingViewport,
  NODE_HEIGHT,
  NODE_WIDTH,
  nodesBounds,
  OPENING_FLOOR_ZOOM,
  openingView,
} from './initial-viewport';
import { openingBlock } from './opening-block';
import { newBlock } from './schema-ops';

const zoom = { min: 0.05, max: 2 };

/** The view fitting the whole bot, as the canvas computes it when it opens. */
const initialViewport = (blocks: readonly Block[], width: number, height: number, z: typeof zoom) =>
  fittingViewport(blocksBounds(blocks), width, height, z);

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

describe('nodesBounds', () => {
  it('is null without nodes', () => {
    expect(nodesBounds([])).toBeNull();
  });

  it('takes measured sizes, then set ones, then the usual size', () => {
    const bounds = nodesBounds([
      { position: { x: 0, y: 0 }, measured: { width: 300, height: 400 } },
      { position: { x: 1000, y: 0 }, width: 260, height: 140 },
      { position: { x: 0, y: 1000 } },
    ]);
    expect(bounds).toEqual({ x: 0, y: 0, width: 1260, height: 1000 + NODE_HEIGHT });
  });
});

describe('fittingViewport of the blocks', () => {
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

/** Where a block's centre lands on screen under `viewport`. */
function onScreen(block: Block, viewport: { x: number; y: number; zoom: number }) {
  return {
    x: (block.position.x + NODE_WIDTH / 2) * viewport.zoom + viewport.x,
    y: (block.position.y + NODE_HEIGHT / 2) * viewport.zoom + viewport.y,
  };
}

describe('centredViewport', () => {
  it('puts the flow point in the middle of the pane at the zoom', () => {
    const view = centredViewport({ x: 500, y: 300 }, 1000, 600, 2);
    expect(view.zoom).toBe(2);
    // The point's screen position: flow × zoom + the view's offset.
    expect(500 * view.zoom + view.x).toBe(500);
    expect(300 * view.zoom + view.y).toBe(300);
  });
});

describe('openingBlock', () => {
  const blocks = [
    newBlock('state', 1, { x: 0, y: 0 }),
    newBlock('start', 7, { x: 0, y: 0 }),
    newBlock('start', 3, { x: 0, y: 0 }),
  ];

  it('is the block asked for, if the bot has it', () => {
    expect(openingBlock(blocks, 3)?.id).toBe(3);
    expect(openingBlock(blocks, 99)?.id).toBe(7);
  });

  it('is the first start block, else the first block', () => {
    expect(openingBlock(blocks)?.id).toBe(7);
    expect(openingBlock(blocks.slice(0, 1))?.id).toBe(1);
    expect(openingBlock([])).toBeUndefined();
  });
});

describe('openingView', () => {
  it('fits a bot that is readable when fitted', () => {
    const blocks = grid(3, 3);
    expect(openingView(blocks, 1000, 800, zoom)).toEqual({
      viewport: initialViewport(blocks, 1000, 800, zoom),
      fitted: true,
    });
  });

  it('opens a big bot at the floor zoom on its start block, not fitted', () => {
    const blocks = grid(5000, 40);
    blocks[1234] = { ...blocks[1234], kind: 'start' };
    const { viewport, fitted } = openingView(blocks, 1000, 800, zoom);
    expect(fitted).toBe(false);
    expect(viewport.zoom).toBe(OPENING_FLOOR_ZOOM);
    // Far inside the grid: the start block is in the middle of the pane.
    const centre = onScreen(blocks[1234], viewport);
    expect(centre.x).toBeCloseTo(500);
    expect(centre.y).toBeCloseTo(400);
  });

  it('keeps the view inside the bot when the start block is at its corner', () => {
    const blocks = grid(5000, 40);
    blocks[0] = { ...blocks[0], kind: 'start' };
    const { viewport } = openingView(blocks, 1000, 800, zoom);
    // The first block's top left corner 40 px in from the pane's, not centred with empty space around.
    expect(viewport.x).toBeCloseTo(40);
    expect(viewport.y).toBeCloseTo(40);
    const centre = onScreen(blocks[0], viewport);
    expect(centre.x).toBeGreaterThan(0);
    expect(centre.y).toBeGreaterThan(0);
  });

  it('centres on a `?block=` block, and centres a long thin bot across its short side', () => {
    const row = grid(100, 100);
    const { viewport } = openingView(row, 1000, 800, zoom, 50);
    expect(viewport.zoom).toBe(OPENING_FLOOR_ZOOM);
    expect(onScreen(row[49], viewport).x).toBeCloseTo(500);
    // One row, shorter than the pane: centred vertically on it.
    expect(onScreen(row[49], viewport).y).toBeCloseTo(400);
  });
});
