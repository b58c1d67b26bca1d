import { type ArrangeBlock, arrangeBlocks } from '@/lib/canvas/arrange';
import type { Arrow, BotSchema } from '@/lib/schema';
import { NODE_HEIGHT, NODE_WIDTH } from './initial-viewport';
import { arrowLabel } from './schema-to-flow';

/** The drawn size of a block: measured once rendered, its usual size before. */
export interface DrawnSize {
  width: number;
  height: number;
}

/** A label's widest (arrow-edge.tsx's `max-w-48`). */
const LABEL_MAX = 192;

/**
 * About how wide an arrow's label is drawn (10 px text, its padding and icons): a label off
 * screen is not rendered to measure. Generous rather than short, so it keeps clear of blocks.
 */
export function labelWidth(arrow: Arrow): number {
  const icons =
    Number(arrow.kind === 'timer' || arrow.kind === 'continue') +
    Number(arrow.collectInto !== undefined) +
    Number(arrow.showAsButton);
  const text = arrowLabel(arrow).length + (arrow.collectInto ? arrow.collectInto.length + 2 : 0);
  return Math.min(LABEL_MAX, 16 + 16 * icons + Math.ceil(text * 6.5));
}

/** The bot's blocks' new positions, arranged left to right along its arrows (lib/canvas/arrange.ts). */
export function arrangedLayout(schema: BotSchema, sizeOf: (blockId: number) => DrawnSize | undefined) {
  const blocks: ArrangeBlock[] = schema.blocks.map((block) => ({
    id: block.id,
    position: block.position,
    ...(sizeOf(block.id) ?? block.size ?? { width: NODE_WIDTH, height: NODE_HEIGHT }),
    note: block.kind === 'comment',
  }));
  const arrows = schema.arrows.map((arrow) => ({
    from: arrow.from,
    to: arrow.to,
    labelWidth: labelWidth(arrow),
  }));
  return new Map([...arrangeBlocks(blocks, arrows)].map(([id, position]) => [id, { position }] as const));
}
