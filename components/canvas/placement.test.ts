import { describe, expect, it } from 'vitest';
import { type Box, freeSpot, isHidden, PLACEMENT_GAP } from './placement';

const size = { width: 224, height: 96 };
const boxAt = (x: number, y: number): Box => ({ x, y, ...size });
const apart = (a: Box, b: Box) =>
  a.x >= b.x + b.width + PLACEMENT_GAP ||
  b.x >= a.x + a.width + PLACEMENT_GAP ||
  a.y >= b.y + b.height + PLACEMENT_GAP ||
  b.y >= a.y + a.height + PLACEMENT_GAP;

describe('freeSpot', () => {
  it('keeps the wanted spot when it is free', () => {
    expect(freeSpot({ x: 10, y: 20 }, size, [])).toEqual({ x: 10, y: 20 });
    expect(freeSpot({ x: 0, y: 0 }, size, [boxAt(400, 0)])).toEqual({ x: 0, y: 0 });
  });

  it('moves off a block on the wanted spot, to the nearest free spot', () => {
    const taken = [boxAt(0, 0)];
    const at = freeSpot({ x: 0, y: 0 }, size, taken);
    expect(apart({ ...at, ...size }, taken[0])).toBe(true);
    // Below the block is the nearest way out of a wide, short block.
    expect(at).toEqual({ x: 0, y: 96 + PLACEMENT_GAP });
  });

  it('places blocks asked for at one spot one after the other without overlaps', () => {
    const taken: Box[] = [];
    for (let i = 0; i < 12; i++) taken.push({ ...freeSpot({ x: 100, y: 100 }, size, taken), ...size });
    for (const [i, a] of taken.entries())
      for (const b of taken.slice(i + 1)) expect(apart(a, b), `${JSON.stringify([a, b])}`).toBe(true);
    // Near where they were asked for: within a few block sizes.
    for (const box of taken) expect(Math.hypot(box.x - 100, box.y - 100)).toBeLessThan(600);
  });

  it('keeps a block that comes from another right of it, even when the nearest way out is left', () => {
    // The source at 0, three columns of blocks right of it, room on its left.
    const source = boxAt(0, 0);
    const rightOf = source.x + source.width + PLACEMENT_GAP;
    const taken = [source];
    for (const x of [rightOf, rightOf * 2, rightOf * 3])
      for (let y = -480; y <= 480; y += 120) taken.push(boxAt(x, y));
    const at = freeSpot({ x: rightOf, y: 0 }, size, taken, { rightOf });
    expect(at.x).toBeGreaterThanOrEqual(rightOf);
    for (const box of taken) expect(apart({ ...at, ...size }, box)).toBe(true);
    // Without it the nearest spot is left of the source.
    expect(freeSpot({ x: rightOf, y: 0 }, size, taken).x).toBeLessThan(0);
  });

  it('finds a gap between blocks rather than going around them', () => {
    // Two columns with room for one block between them.
    const taken = [boxAt(0, 0), boxAt(0, 200), boxAt(600, 0), boxAt(600, 200)];
    const at = freeSpot({ x: 280, y: 100 }, size, taken);
    expect(at).toEqual({ x: 280, y: 100 });
    const inside = freeSpot({ x: 10, y: 10 }, size, taken);
    for (const box of taken) expect(apart({ ...inside, ...size }, box)).toBe(true);
  });

  it('respects bigger boxes (notes) and the size of the new block', () => {
    const note: Box = { x: -50, y: -50, width: 600, height: 400 };
    const at = freeSpot({ x: 0, y: 0 }, { width: 260, height: 140 }, [note]);
    expect(apart({ ...at, width: 260, height: 140 }, note)).toBe(true);
  });

  it('finds a way out of a packed 5,000-block grid quickly', () => {
    // No room anywhere inside: the nearest free spot is past the grid's edge, 2,000 px away.
    const taken = Array.from({ length: 5000 }, (_, i) => boxAt((i % 20) * 240, Math.floor(i / 20) * 110));
    const started = performance.now();
    const at = freeSpot({ x: 2400, y: 13000 }, size, taken);
    expect(performance.now() - started).toBeLessThan(2000);
    for (const box of taken) expect(apart({ ...at, ...size }, box)).toBe(true);
    expect(Math.abs(at.y - 13000)).toBeLessThan(200);
  });
});

describe('isHidden', () => {
  const pane: Box = { x: 0, y: 50, width: 800, height: 600 };
  const minimap: Box = { x: 600, y: 500, width: 180, height: 130 };

  it('is false for a block well inside the pane, clear of the panels', () => {
    expect(isHidden({ x: 100, y: 100, ...size }, pane, [minimap], 40)).toBe(false);
  });

  it('is true for a block past an edge or within the margin of it', () => {
    expect(isHidden({ x: 700, y: 100, ...size }, pane, [], 40)).toBe(true);
    expect(isHidden({ x: 100, y: 60, ...size }, pane, [], 40)).toBe(true);
    expect(isHidden({ x: -300, y: 100, ...size }, pane, [], 40)).toBe(true);
  });

  it('is true for a block under a panel', () => {
    expect(isHidden({ x: 420, y: 450, ...size }, pane, [minimap], 0)).toBe(true);
    expect(isHidden({ x: 420, y: 300, ...size }, pane, [minimap], 0)).toBe(false);
  });
});
