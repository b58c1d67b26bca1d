import { pauseEnd } from '@/lib/inbox/pause';
import type { RunContext } from './run-context';

/**
 * The handoff (docs/inbox.md): waiting for an operator, the bot paused from here on, for the
 * project's pause length. `ask_operator()` and the AI assistant's handoff both come here.
 */
export async function askOperator(run: RunContext): Promise<void> {
  const { botPauseMinutes } = await run.db.project.findUniqueOrThrow({
    where: { id: run.project.id },
    select: { botPauseMinutes: true },
  });
  run.askOperator(pauseEnd(run.now(), botPauseMinutes));
}
