import dagre from '@dagrejs/dagre';

/**
 * The canvas's "Arrange": a bot laid out left to right along its arrows (dagre's layered
 * layout). Pure: the caller passes each block's size (as drawn) and each arrow's label width.
 */

export interface Point {
  x: number;
  y: number;
}

export interface ArrangeBlock {
  id: number;
  position: Point;
  width: number;
  height: number;
  /** A note: not part of the flow, set in a row under the arranged blocks. */
  note?: boolean;
}

export interface ArrangeArrow {
  from: number;
  to: number;
  /** The label's width as drawn: dagre keeps that much room for it between the two columns. */
  labelWidth: number;
}

/** Space between blocks in one column, between columns, and between a column and a label. */
export const ARRANGE_GAP = { block: 40, column: 64, label: 16 } as const;
/** The height of an arrow's label (one line of small text). */
const LABEL_HEIGHT = 20;

/**
 * Each block's new top-left corner. The arranged bot starts where the bot did (its top-left
 * corner), so the view stays over it; arrows run left to right, except those closing a loop.
 * Notes follow in a row under it, in their order.
 */
export function arrangeBlocks(
  blocks: readonly ArrangeBlock[],
  arrows: readonly ArrangeArrow[],
): Map<number, Point> {
  const placed = new Map<number, Point>();
  if (!blocks.length) return placed;
  const origin = {
    x: Math.min(...blocks.map((b) => b.position.x)),
    y: Math.min(...blocks.map((b) => b.position.y)),
  };
  const flow = blocks.filter((b) => !b.note);
  const graph = new dagre.graphlib.Graph({ multigraph: true });
  graph.setGraph({
    rankdir: 'LR',
    nodesep: ARRANGE_GAP.block,
    // dagre halves it where arrows have labels (a label gets a column of its own).
    ranksep: ARRANGE_GAP.column,
    edgesep: ARRANGE_GAP.label,
  });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const block of flow) graph.setNode(String(block.id), { width: block.width, height: block.height });
  arrows.forEach((arrow, i) => {
    if (!graph.hasNode(String(arrow.from)) || !graph.hasNode(String(arrow.to))) return;
    graph.setEdge(
      String(arrow.from),
      String(arrow.to),
      { width: arrow.labelWidth + 2 * ARRANGE_GAP.label, height: LABEL_HEIGHT, labelpos: 'c' },
      String(i),
    );
  });
  dagre.layout(graph);
  // dagre gives centres (its drawing may start with a label, above or left of every block);
  // the canvas keeps top-left corners, the first of them at the bot's old top-left corner.
  const corners = flow.map((b) => {
    const node = graph.node(String(b.id));
    return { x: node.x - b.width / 2, y: node.y - b.height / 2 };
  });
  const shift = {
    x: origin.x - Math.min(...corners.map((c) => c.x)),
    y: origin.y - Math.min(...corners.map((c) => c.y)),
  };
  let bottom = origin.y;
  for (const [i, block] of flow.entries()) {
    const at = { x: Math.round(corners[i].x + shift.x), y: Math.round(corners[i].y + shift.y) };
    placed.set(block.id, at);
    bottom = Math.max(bottom, at.y + block.height);
  }
  let x = origin.x;
  const notesTop = flow.length ? bottom + ARRANGE_GAP.column : origin.y;
  for (const note of blocks.filter((b) => b.note)) {
    placed.set(note.id, { x, y: notesTop });
    x += note.width + ARRANGE_GAP.block;
  }
  return placed;
}
