import {
  type Arrow,
  arrowSchema,
  type Block,
  type BlockKind,
  type BotSchema,
  blockSchema,
  TRIGGER_KINDS,
} from '@/lib/schema';
import { defaultArrowKind } from '@/lib/schema/arrow-defaults';

/** Pure edits of a bot schema: each returns a new schema and shares every unchanged block and arrow. */

export const DEFAULT_COMMENT_SIZE = { width: 260, height: 140 } as const;

export function newBlock(kind: BlockKind, id: number, position: { x: number; y: number }): Block {
  return blockSchema.parse({
    id,
    kind,
    position: { x: Math.round(position.x), y: Math.round(position.y) },
    trigger: TRIGGER_KINDS.has(kind) ? {} : undefined,
    size: kind === 'comment' ? DEFAULT_COMMENT_SIZE : undefined,
  });
}

/**
 * A new arrow out of block `from` of `bot`: it continues at once where that block does not wait
 * for a reply, else it waits for any reply (defaultArrowKind); without `bot`, any reply.
 */
export function newArrow(
  id: number,
  from: number,
  to: number,
  bot?: Pick<BotSchema, 'blocks' | 'arrows'>,
): Arrow {
  const source = bot?.blocks.find((b) => b.id === from);
  const outgoing = bot?.arrows.filter((a) => a.from === from) ?? [];
  const kind = source ? defaultArrowKind(source, outgoing) : 'unconditional';
  return arrowSchema.parse({ id, from, to, kind });
}

/** An arrow dragged from a button's handle: it follows a press of that button (an exact match of its text). */
export function newButtonArrow(id: number, from: number, to: number, text: string): Arrow {
  return arrowSchema.parse({
    id,
    from,
    to,
    kind: 'condition',
    condition: { alternatives: text, match: 'exact' },
  });
}

/** Changes a block's kind: trigger kinds get an (empty) trigger, others lose it; notes get a size. */
export function withKind(block: Block, kind: BlockKind): Block {
  if (block.kind === kind) return block;
  const next: Block = { ...block, kind };
  if (TRIGGER_KINDS.has(kind))
    next.trigger = block.trigger ?? { alternatives: '', match: 'exact', expression: '', ignore: '' };
  else delete next.trigger;
  if (kind === 'comment') next.size = block.size ?? { ...DEFAULT_COMMENT_SIZE };
  else delete next.size;
  return next;
}

export function addItems(
  schema: BotSchema,
  blocks: readonly Block[],
  arrows: readonly Arrow[] = [],
): BotSchema {
  return { ...schema, blocks: [...schema.blocks, ...blocks], arrows: [...schema.arrows, ...arrows] };
}

/** Removes blocks (with every arrow touching them) and arrows. */
export function deleteItems(
  schema: BotSchema,
  blockIds: ReadonlySet<number>,
  arrowIds: ReadonlySet<number> = new Set(),
): BotSchema {
  if (!blockIds.size && !arrowIds.size) return schema;
  return {
    ...schema,
    blocks: schema.blocks.filter((b) => !blockIds.has(b.id)),
    arrows: schema.arrows.filter((a) => !arrowIds.has(a.id) && !blockIds.has(a.from) && !blockIds.has(a.to)),
  };
}

export function replaceBlock(schema: BotSchema, block: Block): BotSchema {
  let found = false;
  const blocks = schema.blocks.map((b) => {
    if (b.id !== block.id) return b;
    found = true;
    return block;
  });
  return found ? { ...schema, blocks } : schema;
}

export function replaceArrow(schema: BotSchema, arrow: Arrow): BotSchema {
  let found = false;
  const arrows = schema.arrows.map((a) => {
    if (a.id !== arrow.id) return a;
    found = true;
    return arrow;
  });
  return found ? { ...schema, arrows } : schema;
}

/** Applies canvas positions (and note sizes) to the blocks; the same schema when nothing moved. */
export function applyLayout(
  schema: BotSchema,
  layout: ReadonlyMap<
    number,
    { position: { x: number; y: number }; size?: { width: number; height: number } }
  >,
): BotSchema {
  let changed = false;
  const blocks = schema.blocks.map((block) => {
    const place = layout.get(block.id);
    if (!place) return block;
    const x = Math.round(place.position.x);
    const y = Math.round(place.position.y);
    const moved = x !== block.position.x || y !== block.position.y;
    const size = place.size
      ? { width: Math.round(place.size.width), height: Math.round(place.size.height) }
      : undefined;
    const resized =
      size !== undefined && (size.width !== block.size?.width || size.height !== block.size?.height);
    if (!moved && !resized) return block;
    changed = true;
    return { ...block, position: moved ? { x, y } : block.position, ...(resized ? { size } : {}) };
  });
  return changed ? { ...schema, blocks } : schema;
}
