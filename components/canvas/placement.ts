/** Where new blocks go: pure geometry on the canvas's flow coordinates. */

export interface Point {
  x: number;
  y: number;
}
export interface Box extends Point {
  width: number;
  height: number;
}

/** Space kept between a new block and the blocks around it. */
export const PLACEMENT_GAP = 24;
/** Distance between the spots tried around the wanted one. */
const STEP = 24;
/** How many rings of spots are tried before giving up (about 4,800 px each way). */
const MAX_RINGS = 200;

const overlaps = (a: Box, b: Box, gap: number) =>
  a.x < b.x + b.width + gap &&
  b.x < a.x + a.width + gap &&
  a.y < b.y + b.height + gap &&
  b.y < a.y + a.height + gap;

/** Side of the cells boxes are filed under, so a spot is checked against its neighbours only. */
const CELL = 256;

/** The boxes by the cells they touch. */
function fileByCell(boxes: readonly Box[], gap: number) {
  const cells = new Map<string, Box[]>();
  for (const box of boxes)
    for (let cx = Math.floor((box.x - gap) / CELL); cx <= Math.floor((box.x + box.width + gap) / CELL); cx++)
      for (
        let cy = Math.floor((box.y - gap) / CELL);
        cy <= Math.floor((box.y + box.height + gap) / CELL);
        cy++
      ) {
        const key = `${cx},${cy}`;
        const list = cells.get(key);
        if (list) list.push(box);
        else cells.set(key, [box]);
      }
  return (at: Box) => {
    const near: Box[] = [];
    for (let cx = Math.floor(at.x / CELL); cx <= Math.floor((at.x + at.width) / CELL); cx++)
      for (let cy = Math.floor(at.y / CELL); cy <= Math.floor((at.y + at.height) / CELL); cy++)
        near.push(...(cells.get(`${cx},${cy}`) ?? []));
    return near;
  };
}

/**
 * The top-left corner nearest `wanted` where a block of `size` keeps PLACEMENT_GAP from every
 * box in `taken`: `wanted` itself when it is free, else the nearest free spot on a 24 px grid
 * around it (ring by ring, the nearest of each ring first). `wanted` when nothing is free within
 * MAX_RINGS rings, which only a canvas packed that far could cause. With `rightOf` (a block that
 * comes from another: the x past that one's right edge), no spot left of it is taken.
 */
export function freeSpot(
  wanted: Point,
  size: { width: number; height: number },
  taken: readonly Box[],
  { rightOf = Number.NEGATIVE_INFINITY }: { rightOf?: number } = {},
): Point {
  const near = fileByCell(taken, PLACEMENT_GAP);
  const isFree = (at: Point) => {
    const box = { ...at, ...size };
    return at.x >= rightOf && !near(box).some((b) => overlaps(box, b, PLACEMENT_GAP));
  };
  if (isFree(wanted)) return { x: wanted.x, y: wanted.y };
  // Ring by ring: the spots at the same Chebyshev distance, the nearest (Euclidean) first.
  for (let ring = 1; ring <= MAX_RINGS; ring++) {
    const spots: Point[] = [];
    for (let i = -ring; i <= ring; i++) {
      spots.push({ x: i, y: -ring }, { x: i, y: ring });
      if (i > -ring && i < ring) spots.push({ x: -ring, y: i }, { x: ring, y: i });
    }
    // Ties go below, then right: where a bot's next blocks usually are.
    spots.sort((a, b) => a.x * a.x + a.y * a.y - (b.x * b.x + b.y * b.y) || b.y - a.y || b.x - a.x);
    for (const spot of spots) {
      const at = { x: wanted.x + spot.x * STEP, y: wanted.y + spot.y * STEP };
      if (isFree(at)) return at;
    }
  }
  return { x: wanted.x, y: wanted.y };
}

const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Whether a block (a screen rectangle) is out of the designer's sight: not inside `pane` with
 * `margin` to spare, or under one of the panels floating over it (`covers`, e.g. the minimap).
 */
export function isHidden(block: Box, pane: Box, covers: readonly Box[], margin: number): boolean {
  const inside =
    block.x >= pane.x + margin &&
    block.y >= pane.y + margin &&
    block.x + block.width <= pane.x + pane.width - margin &&
    block.y + block.height <= pane.y + pane.height - margin;
  return !inside || covers.some((cover) => intersects(block, cover));
}
