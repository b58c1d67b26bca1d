import type { BotSchema } from '@/lib/schema';

/**
 * Block ids are the API's `message_id`: integrators keep them in their code, so an id is never
 * reused after a delete. A new id is above every id in the schema and every id seen in this
 * editing session (including blocks deleted since, or undone); the server also keeps nextBlockId.
 */
export interface IdWatermark {
  /** The highest block id ever seen in this session. */
  block: number;
  /** The highest arrow id ever seen in this session. */
  arrow: number;
}

export function maxId(items: readonly { id: number }[]): number {
  let max = 0;
  for (const item of items) if (item.id > max) max = item.id;
  return max;
}

/** The watermark after seeing `schema`: never goes down. */
export function observeIds(watermark: IdWatermark, schema: BotSchema): IdWatermark {
  const block = Math.max(watermark.block, maxId(schema.blocks));
  const arrow = Math.max(watermark.arrow, maxId(schema.arrows));
  return block === watermark.block && arrow === watermark.arrow ? watermark : { block, arrow };
}

/** The starting watermark: the schema's ids, and the server's next ids when it sends them. */
export function initialWatermark(
  schema: BotSchema,
  server: { nextBlockId?: number; nextArrowId?: number } = {},
): IdWatermark {
  return observeIds({ block: (server.nextBlockId ?? 1) - 1, arrow: (server.nextArrowId ?? 1) - 1 }, schema);
}

/** `count` consecutive fresh ids above `highest` and `existing`. */
export function allocateIds(highest: number, existing: readonly { id: number }[], count: number): number[] {
  const first = Math.max(highest, maxId(existing)) + 1;
  return Array.from({ length: count }, (_, i) => first + i);
}
