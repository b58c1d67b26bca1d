import { type GetBezierPathParams, getBezierPath } from '@xyflow/system';
import type { Box, Point } from './placement';

/**
 * How an arrow's line runs, from the right edge of its source block (or a button's handle) to
 * the left edge of its target. Forward arrows are React Flow's bezier. A backward arrow (its
 * target starts left of where it leaves, a loop back to itself included) would cross both
 * blocks as a bezier and put its label where the forward arrow between the same blocks puts
 * its own, so it goes around: out to the right, along a lane between the two blocks when one
 * lies wholly above the other, else above or below both (whichever is shorter), back to the
 * left of the target, and in. Its label sits on that lane, clear of both blocks.
 */

/** Straight stretch out of the source's handle and into the target's before the first turn. */
const STUB = 24;
/** Distance kept between a lane and the blocks it passes. */
const CLEARANCE = 28;
/** Radius of the rounded corners. */
const RADIUS = 10;

export interface ArrowEnds {
  source: Point;
  target: Point;
}

/** [svg path, label x, label y] */
export type ArrowRoute = [path: string, labelX: number, labelY: number];

export const isBackward = ({ source, target }: ArrowEnds) => target.x < source.x + 2 * STUB;

/** The y of the lane a backward arrow runs along between or around its two blocks. */
export function laneY({ source, target }: ArrowEnds, from: Box, to: Box): number {
  const below = (a: Box, b: Box) => b.y - (a.y + a.height);
  if (below(from, to) >= 2 * CLEARANCE) return (from.y + from.height + to.y) / 2;
  if (below(to, from) >= 2 * CLEARANCE) return (to.y + to.height + from.y) / 2;
  const over = Math.min(from.y, to.y) - CLEARANCE;
  const under = Math.max(from.y + from.height, to.y + to.height) + CLEARANCE;
  const travel = (y: number) => Math.abs(source.y - y) + Math.abs(target.y - y);
  return travel(over) <= travel(under) ? over : under;
}

/** A polyline with its corners rounded (each radius capped at half its shorter leg). */
export function roundedPath(points: readonly Point[]): string {
  let d = `M ${points[0].x} ${points[0].y}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [a, b, c] = [points[i - 1], points[i], points[i + 1]];
    const r = Math.min(RADIUS, Math.hypot(b.x - a.x, b.y - a.y) / 2, Math.hypot(c.x - b.x, c.y - b.y) / 2);
    const toward = (p: Point) => {
      const length = Math.hypot(p.x - b.x, p.y - b.y) || 1;
      return { x: b.x + ((p.x - b.x) * r) / length, y: b.y + ((p.y - b.y) * r) / length };
    };
    const enter = toward(a);
    const leave = toward(c);
    d += ` L ${enter.x} ${enter.y} Q ${b.x} ${b.y} ${leave.x} ${leave.y}`;
  }
  const last = points[points.length - 1];
  return `${d} L ${last.x} ${last.y}`;
}

/** The route of a backward arrow around its blocks (see above). */
export function backwardRoute(ends: ArrowEnds, from: Box, to: Box): ArrowRoute {
  const { source, target } = ends;
  const lane = laneY(ends, from, to);
  const out = Math.max(source.x, from.x + from.width) + STUB;
  const back = Math.min(target.x, to.x) - STUB;
  const path = roundedPath([
    source,
    { x: out, y: source.y },
    { x: out, y: lane },
    { x: back, y: lane },
    { x: back, y: target.y },
    target,
  ]);
  return [path, (out + back) / 2, lane];
}

/** An arrow's route: the bezier forward, around its blocks backward (when their boxes are known). */
export function arrowRoute(ends: GetBezierPathParams, from?: Box, to?: Box): ArrowRoute {
  const points = {
    source: { x: ends.sourceX, y: ends.sourceY },
    target: { x: ends.targetX, y: ends.targetY },
  };
  if (from && to && isBackward(points)) return backwardRoute(points, from, to);
  const [path, labelX, labelY] = getBezierPath(ends);
  return [path, labelX, labelY];
}
