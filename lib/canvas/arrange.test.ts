import { describe, expect, it } from 'vitest';
import { ARRANGE_GAP, type ArrangeArrow, type ArrangeBlock, arrangeBlocks } from './arrange';

const block = (id: number, x = 0, y = 0, height = 96): ArrangeBlock => ({
  id,
  position: { x, y },
  width: 224,
  height,
});
const arrow = (from: number, to: number, labelWidth = 60): ArrangeArrow => ({ from, to, labelWidth });

type Box = { x: number; y: number; width: number; height: number };
const boxesOf = (blocks: ArrangeBlock[], placed: Map<number, { x: number; y: number }>) =>
  new Map<number, Box>(blocks.map((b) => [b.id, { ...placed.get(b.id)!, width: b.width, height: b.height }]));
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('arrangeBlocks', () => {
  // A piled-up bot: a start, a menu with three answers, two of them leading on, one back.
  const blocks = [
    block(1, 500, 300),
    block(2, 510, 310, 160),
    block(3, 520, 320),
    block(4),
    block(5, 40, 20),
  ];
  blocks.push(block(6, 530, 330));
  const arrows = [
    arrow(1, 2),
    arrow(2, 3, 180),
    arrow(2, 4),
    arrow(2, 5),
    arrow(3, 6),
    arrow(6, 2),
    arrow(4, 4),
  ];
  const placed = arrangeBlocks(blocks, arrows);
  const boxes = boxesOf(blocks, placed);

  it('places every block, none on another', () => {
    expect([...placed.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    for (const a of blocks)
      for (const b of blocks)
        if (a.id < b.id)
          expect(overlap(boxes.get(a.id)!, boxes.get(b.id)!), `${a.id} on ${b.id}`).toBe(false);
  });

  it('runs arrows left to right, with room for the label between the blocks', () => {
    for (const a of arrows.filter((a) => a.from !== a.to && !(a.from === 6 && a.to === 2))) {
      const from = boxes.get(a.from)!;
      const to = boxes.get(a.to)!;
      expect(to.x - (from.x + from.width), `arrow ${a.from} → ${a.to}`).toBeGreaterThanOrEqual(a.labelWidth);
    }
  });

  it('starts where the bot started, so the view stays over it', () => {
    const xs = [...boxes.values()].map((b) => b.x);
    const ys = [...boxes.values()].map((b) => b.y);
    expect(Math.min(...xs)).toBe(0);
    expect(Math.min(...ys)).toBe(0);
    const moved = arrangeBlocks(
      blocks.map((b) => ({ ...b, position: { x: b.position.x + 1000, y: b.position.y - 50 } })),
      arrows,
    );
    expect(moved.get(1)).toEqual({ x: placed.get(1)!.x + 1000, y: placed.get(1)!.y - 50 });
  });

  it('sets notes in a row under the arranged blocks', () => {
    const note = { ...block(7, 0, 0), width: 260, height: 140, note: true };
    const note2 = { ...block(8, 0, 0), width: 260, height: 140, note: true };
    const withNotes = arrangeBlocks([...blocks, note, note2], arrows);
    const bottom = Math.max(...[...boxes.values()].map((b) => b.y + b.height));
    expect(withNotes.get(7)).toEqual({ x: 0, y: bottom + ARRANGE_GAP.column });
    expect(withNotes.get(8)).toEqual({ x: 260 + ARRANGE_GAP.block, y: bottom + ARRANGE_GAP.column });
  });

  it('arranges nothing for no blocks, and ignores arrows to blocks it was not given', () => {
    expect(arrangeBlocks([], []).size).toBe(0);
    expect(arrangeBlocks([block(1, 5, 6)], [arrow(1, 9)])).toEqual(new Map([[1, { x: 5, y: 6 }]]));
  });
});
