import type { Block, Timer } from '@/lib/schema';
import { movesClient } from '../compiled-bot';
import type { NextBlock, RunContext } from '../run-context';
import { parseLocalDateTime } from '../system-variables';

/**
 * Step 5: the block's timer arrows are scheduled (a row written with the event, its job queued
 * after the commit), each replacing the client's pending timer of the same arrow; 0-second
 * timers and dates already past are yielded, for the runner to enter at once before the next
 * arrow is scheduled.
 */
export async function* timersStep(run: RunContext, block: Block): AsyncGenerator<NextBlock> {
  for (const arrow of run.bot.arrowsFrom.get(block.id) ?? []) {
    if (arrow.kind !== 'timer' || !arrow.timer) continue;
    const runAt = await timerRunAt(run, arrow.timer);
    if (!runAt) {
      run.note('error', {
        arrowId: arrow.id,
        message: `The timer's date "${'at' in arrow.timer ? arrow.timer.at : ''}" is not dd.mm.yyyy hh:mm.`,
      });
      continue;
    }
    if (arrow.cancelOtherTimers) await run.timers.cancelAll(arrow.id);
    const immediate = runAt.getTime() <= run.now().getTime();
    // A 0-second timer never waits, so none of its arrow is pending: nothing to look up.
    const send =
      immediate && 'delay' in arrow.timer
        ? null
        : await run.timers.schedule({
            arrowId: arrow.id,
            // The block the client is in once this block is entered: "left" is measured from it.
            blockId: movesClient(block) ? block.id : run.currentBlockId,
            cancelIfLeft: arrow.cancelIfLeft,
            runAt: immediate ? null : runAt,
          });
    if (!send) {
      run.note('timer_fired', { arrowId: arrow.id, immediate: true });
      yield { block: run.requireBlock(arrow.to), via: 'timer', arrowId: arrow.id };
      continue;
    }
    run.note('timer_scheduled', { arrowId: arrow.id, scheduledSendId: send.id, runAt: runAt.toISOString() });
  }
}

async function timerRunAt(run: RunContext, timer: Timer): Promise<Date | null> {
  const now = run.now();
  if ('delay' in timer) {
    const unit = { seconds: 1, minutes: 60, hours: 3600, days: 86_400 }[timer.unit];
    return new Date(now.getTime() + timer.delay * unit * 1000);
  }
  await run.templates.prepareExpressions(timer.at);
  return parseLocalDateTime(run.templates.render(timer.at), run.project.timeZone);
}
