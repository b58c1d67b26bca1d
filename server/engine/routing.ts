import { matchCondition } from '@/lib/matching';
import type { Arrow, Block, Condition } from '@/lib/schema';
import type { CompiledBot } from './compiled-bot';

/** Where an incoming message goes (bot-semantics §1, "Choosing where an incoming message goes"). */
export type RouteTarget =
  | { via: 'start'; block: Block }
  | { via: 'entry'; block: Block }
  | { via: 'arrow'; arrow: Arrow; block: Block }
  | { via: 'ai_choice'; arrow: Arrow; block: Block }
  | { via: 'quick_reply'; block: Block }
  /** The reply failed the current block's input check (lib/schema/input-check.ts): asked again. */
  | { via: 'input_retry'; block: Block };

/** Checks a condition's extra parts (comparison expression, condition request); async as they may do I/O. */
export type ConditionCheck = (condition: Condition, arrow?: Arrow) => Promise<boolean>;

async function holds(text: string, condition: Condition | undefined, check: ConditionCheck, arrow?: Arrow) {
  if (!condition || matchCondition(text, condition) === null) return false;
  return check(condition, arrow);
}

/** The AI choice of arrow (docs/ai.md): among the block's condition arrows none of which matched. */
export type ArrowChoice = (arrows: Arrow[]) => Promise<Arrow | null>;

export async function routeMessage(
  bot: CompiledBot,
  currentBlockId: number | null,
  text: string,
  check: ConditionCheck,
  choose?: ArrowChoice,
  /** The reply failed the current block's input check: only a start trigger takes it elsewhere. */
  invalidInput = false,
): Promise<RouteTarget | null> {
  for (const block of bot.triggeredStarts) {
    if (await holds(text, block.trigger, check)) return { via: 'start', block };
  }
  // A client whose block the published version no longer has starts over, as a new client
  // would (bot-semantics §9): a dead end would leave them unanswered for good.
  if (currentBlockId === null || !bot.blocks.has(currentBlockId))
    return bot.entry ? { via: 'entry', block: bot.entry } : null;

  if (invalidInput) return { via: 'input_retry', block: bot.blocks.get(currentBlockId)! };
  // An input block's exit arrow is followed only after its wrong answers (steps/input.ts).
  const arrows = bot.arrowsFrom.get(currentBlockId) ?? [];
  for (const arrow of arrows) {
    if (
      arrow.kind === 'condition' &&
      !arrow.inputExit &&
      (await holds(text, arrow.condition, check, arrow))
    ) {
      return { via: 'arrow', arrow, block: bot.blocks.get(arrow.to)! };
    }
  }
  const conditional = choose ? arrows.filter((a) => a.kind === 'condition' && !a.inputExit) : [];
  if (choose && conditional.length) {
    const chosen = await choose(conditional);
    if (chosen) return { via: 'ai_choice', arrow: chosen, block: bot.blocks.get(chosen.to)! };
  }
  const unconditional = arrows.find((a) => a.kind === 'unconditional' && !a.inputExit);
  if (unconditional) return { via: 'arrow', arrow: unconditional, block: bot.blocks.get(unconditional.to)! };

  for (const block of bot.quickReplies) {
    if (await holds(text, block.trigger, check)) return { via: 'quick_reply', block };
  }
  return null;
}
