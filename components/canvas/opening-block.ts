import type { Block } from '@/lib/schema';

/**
 * The block a big bot's canvas opens on: `focusId` (a `?block=` link) if the bot has it, else
 * the first start block (where conversations begin), else the first block. No imports but
 * types, so the canvas benchmark targets the same block.
 */
export function openingBlock(blocks: readonly Block[], focusId: number | null = null): Block | undefined {
  return (
    (focusId !== null ? blocks.find((b) => b.id === focusId) : undefined) ??
    blocks.find((b) => b.kind === 'start') ??
    blocks[0]
  );
}
