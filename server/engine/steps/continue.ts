import type { Block } from '@/lib/schema';
import type { RunState } from '../run-state';

/**
 * Step 6: continue arrows out of the block are followed at once, in id order, once its message
 * is sent and its timers scheduled: the next block runs in the same event, so the client gets
 * both messages together. A loop of them stops at the event's block bound (`enteringBlock`).
 */
export async function continueStep(
  run: RunState,
  block: Block,
  enter: (block: Block, via: string, arrowId: number) => Promise<void>,
): Promise<void> {
  for (const arrow of run.bot.arrowsFrom.get(block.id) ?? []) {
    if (arrow.kind === 'continue') await enter(run.requireBlock(arrow.to), 'continue', arrow.id);
  }
}
