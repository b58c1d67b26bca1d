import type { Block } from '@/lib/schema';
import type { NextBlock, RunContext } from '../run-context';

/**
 * Step 6: continue arrows out of the block are followed at once, in id order, once its message
 * is sent and its timers scheduled: the next block runs in the same event, so the client gets
 * both messages together. Each is yielded for the runner to enter before the next is looked at;
 * a loop of them stops at the event's block bound (`enteringBlock`).
 */
export function* continueStep(run: RunContext, block: Block): Generator<NextBlock> {
  for (const arrow of run.bot.arrowsFrom.get(block.id) ?? []) {
    if (arrow.kind === 'continue')
      yield { block: run.requireBlock(arrow.to), via: 'continue', arrowId: arrow.id };
  }
}
