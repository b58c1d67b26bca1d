import { type Arrow, type Block, BOT_SCHEMA_FORMAT, type BotSchema, parseBotSchemaJson } from '@/lib/schema';
import { allocateIds, type IdWatermark, observeIds } from './ids';

/**
 * Copy and paste of blocks. The clipboard holds a bot schema document (the import/export format),
 * so blocks copied in one project paste into another, or into a text file that imports.
 */

/** The selected blocks and the arrows between them, as a bot schema document. */
export function copySelection(schema: BotSchema, blockIds: ReadonlySet<number>): BotSchema {
  return {
    format: BOT_SCHEMA_FORMAT,
    blocks: schema.blocks.filter((b) => blockIds.has(b.id)),
    arrows: schema.arrows.filter((a) => blockIds.has(a.from) && blockIds.has(a.to)),
  };
}

export function serializeClipboard(fragment: BotSchema): string {
  return JSON.stringify(fragment, null, 2);
}

/** The clipboard's text as blocks to paste, or null when it is not a bot schema with blocks. */
export function parseClipboard(text: string): BotSchema | null {
  if (!text.trim().startsWith('{')) return null;
  const parsed = parseBotSchemaJson(text);
  return parsed.ok && parsed.value.blocks.length ? parsed.value : null;
}

export interface Remapped {
  blocks: Block[];
  arrows: Arrow[];
  /** Old block id → new block id. */
  blockIds: Map<number, number>;
}

/**
 * New ids for pasted blocks and arrows, allocated above the target schema and everything seen
 * (`max + 1, max + 2, …` in the order of the old ids); arrows keep their ends among the pasted
 * blocks and any arrow whose end was not copied is dropped; positions move by `offset`.
 */
export function remapFragment(
  fragment: BotSchema,
  target: BotSchema,
  watermark: IdWatermark,
  offset: { x: number; y: number },
): Remapped {
  const blocks = [...fragment.blocks].sort((a, b) => a.id - b.id);
  const newBlockIds = allocateIds(watermark.block, target.blocks, blocks.length);
  const blockIds = new Map(blocks.map((b, i) => [b.id, newBlockIds[i]]));
  const arrows = [...fragment.arrows]
    .sort((a, b) => a.id - b.id)
    .filter((a) => blockIds.has(a.from) && blockIds.has(a.to));
  const newArrowIds = allocateIds(watermark.arrow, target.arrows, arrows.length);
  return {
    blockIds,
    blocks: blocks.map((b) => ({
      ...b,
      id: blockIds.get(b.id)!,
      position: { x: b.position.x + offset.x, y: b.position.y + offset.y },
    })),
    arrows: arrows.map((a, i) => ({
      ...a,
      id: newArrowIds[i],
      from: blockIds.get(a.from)!,
      to: blockIds.get(a.to)!,
    })),
  };
}

/** Pastes a fragment into a schema; returns the new schema, the pasted ids and the new watermark. */
export function pasteFragment(
  schema: BotSchema,
  fragment: BotSchema,
  watermark: IdWatermark,
  offset: { x: number; y: number },
): { schema: BotSchema; blockIds: number[]; arrowIds: number[]; watermark: IdWatermark } {
  const remapped = remapFragment(fragment, schema, watermark, offset);
  const next: BotSchema = {
    ...schema,
    blocks: [...schema.blocks, ...remapped.blocks],
    arrows: [...schema.arrows, ...remapped.arrows],
  };
  return {
    schema: next,
    blockIds: remapped.blocks.map((b) => b.id),
    arrowIds: remapped.arrows.map((a) => a.id),
    watermark: observeIds(watermark, next),
  };
}
