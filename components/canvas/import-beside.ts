import type { Block, BotSchema } from '@/lib/schema';
import { pasteFragment } from './clipboard';
import type { IdWatermark } from './ids';
import { NODE_WIDTH } from './initial-viewport';

/** Space between the existing blocks and imported ones added beside them. */
export const BESIDE_GAP = 200;

function bounds(blocks: readonly Block[]) {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxRight = Number.NEGATIVE_INFINITY;
  for (const b of blocks) {
    minX = Math.min(minX, b.position.x);
    minY = Math.min(minY, b.position.y);
    maxRight = Math.max(maxRight, b.position.x + (b.size?.width ?? NODE_WIDTH));
  }
  return { minX, minY, maxRight };
}

/**
 * An imported schema added beside the bot's blocks (the import's "Add beside"): new block and
 * arrow ids above everything seen (ids are the API's message_id, never reused), arrow ends
 * remapped, and the imported layout moved to the right of the existing blocks, tops aligned.
 */
export function importBeside(schema: BotSchema, imported: BotSchema, watermark: IdWatermark) {
  if (!schema.blocks.length || !imported.blocks.length)
    return pasteFragment(schema, imported, watermark, { x: 0, y: 0 });
  const here = bounds(schema.blocks);
  const there = bounds(imported.blocks);
  return pasteFragment(schema, imported, watermark, {
    x: here.maxRight + BESIDE_GAP - there.minX,
    y: here.minY - there.minY,
  });
}
