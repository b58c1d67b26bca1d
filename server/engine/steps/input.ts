import type { Arrow, Block, BlockInputCheck } from '@/lib/schema';
import { attemptsVariable, retryText } from '@/lib/schema/input-check';
import type { RunContext } from '../run-context';
import { messageStep } from './message';

/**
 * A reply that failed the block's input check (docs/builder.md, "Input checks"): counted in
 * `<variable>_attempts`; the client is asked again with the re-ask text and the block's buttons,
 * or, at the block's `attempts`th wrong answer, the exit arrow is returned for the run to follow.
 */
export async function inputRetryStep(
  run: RunContext,
  block: Block,
  input: BlockInputCheck,
): Promise<Arrow | null> {
  const counter = attemptsVariable(input);
  const attempts = Number(run.variables.get(counter) ?? 0) + 1;
  const exit = run.bot.arrowsFrom.get(block.id)?.find((a) => a.inputExit) ?? null;
  if (exit && attempts >= input.attempts) {
    run.variables.trySet(counter, null);
    run.note('input_invalid', { blockId: block.id, type: input.type, attempts, exitArrowId: exit.id });
    return exit;
  }
  run.variables.trySet(counter, String(attempts));
  run.note('input_invalid', { blockId: block.id, type: input.type, attempts });
  // The block as it would send, with the re-ask text (not on the hot path: only a wrong answer).
  const message = await messageStep(run, { ...block, text: retryText(input), attachments: [] });
  if (message) run.send(message);
  return null;
}

/** A valid answer: its value stored, the count of wrong ones cleared. */
export function inputAnswered(run: RunContext, input: BlockInputCheck, value: string): void {
  run.variables.trySet(input.variable, value);
  run.variables.trySet(attemptsVariable(input), null);
}
