import { getBezierPath, Position } from '@xyflow/system';
import { describe, expect, it } from 'vitest';
import { arrowRoute } from './arrow-route';
import type { Box, Point } from './placement';

const box = (x: number, y: number, width = 240, height = 120): Box => ({ x, y, width, height });
/** The ends React Flow gives an arrow: the source's right handle to the target's left one, mid-height. */
const ends = (from: Box, to: Box) => ({
  sourceX: from.x + from.width,
  sourceY: from.y + from.height / 2,
  targetX: to.x,
  targetY: to.y + to.height / 2,
  sourcePosition: Position.Right,
  targetPosition: Position.Left,
});

/** The points an svg path of M, L and Q commands passes through or bends towards. */
function pointsOf(path: string): Point[] {
  const numbers = path.match(/-?\d+(\.\d+)?/g)?.map(Number) ?? [];
  const points: Point[] = [];
  for (let i = 0; i < numbers.length; i += 2) points.push({ x: numbers[i], y: numbers[i + 1] });
  return points;
}

/** Whether the line from a to b passes inside the box (its edges excluded). */
function crosses(a: Point, b: Point, inside: Box) {
  for (let t = 0; t <= 1; t += 0.01) {
    const x = a.x + (b.x - a.x) * t;
    const y = a.y + (b.y - a.y) * t;
    if (
      x > inside.x + 1 &&
      x < inside.x + inside.width - 1 &&
      y > inside.y + 1 &&
      y < inside.y + inside.height - 1
    )
      return true;
  }
  return false;
}

function expectClear(path: string, boxes: Box[]) {
  const points = pointsOf(path);
  for (let i = 1; i < points.length; i++)
    for (const b of boxes)
      expect(crosses(points[i - 1], points[i], b), `segment ${i} crosses a block`).toBe(false);
}

const inside = (p: Point, b: Box) =>
  p.x >= b.x && p.x <= b.x + b.width && p.y >= b.y && p.y <= b.y + b.height;

describe('arrowRoute', () => {
  it('draws a forward arrow as React Flow’s bezier', () => {
    const e = ends(box(0, 0), box(500, 200));
    const [path, x, y] = getBezierPath(e);
    expect(arrowRoute(e, box(0, 0), box(500, 200))).toEqual([path, x, y]);
  });

  it('takes a backward arrow to a block above it around both, its label clear of them', () => {
    const from = box(400, 100);
    const to = box(0, 0);
    const [path, labelX, labelY] = arrowRoute(ends(from, to), from, to);
    // The bezier crosses both blocks; the route does not.
    const bezier = getBezierPath(ends(from, to))[0];
    expect(pointsOf(bezier).some((p) => inside(p, from) || inside(p, to))).toBe(true);
    expectClear(path, [from, to]);
    expect(inside({ x: labelX, y: labelY }, from) || inside({ x: labelX, y: labelY }, to)).toBe(false);
    // Above both: the shorter way for a target above.
    expect(labelY).toBeLessThan(0);
  });

  it('runs between two blocks when one lies wholly above the other', () => {
    const from = box(300, 0);
    const to = box(0, 400);
    const [path, , labelY] = arrowRoute(ends(from, to), from, to);
    expectClear(path, [from, to]);
    expect(labelY).toBeGreaterThan(120);
    expect(labelY).toBeLessThan(400);
  });

  it('keeps the label of an arrow back apart from the label of the arrow forward between the same blocks', () => {
    const a = box(0, 0);
    const b = box(320, 20);
    const [, forwardX, forwardY] = arrowRoute(ends(a, b), a, b);
    const [path, backX, backY] = arrowRoute(ends(b, a), b, a);
    expectClear(path, [a, b]);
    expect(Math.hypot(forwardX - backX, forwardY - backY)).toBeGreaterThan(60);
  });

  it('loops a block back to itself around it', () => {
    const self = box(100, 100);
    const [path, labelX, labelY] = arrowRoute(ends(self, self), self, self);
    expectClear(path, [self]);
    expect(inside({ x: labelX, y: labelY }, self)).toBe(false);
    expect(path.startsWith(`M ${self.x + self.width} ${self.y + self.height / 2}`)).toBe(true);
    expect(path.endsWith(`L ${self.x} ${self.y + self.height / 2}`)).toBe(true);
  });
});
