import type { Arrow, Block, BotSchema, Button } from '@/lib/schema';
import { BLOCK_KIND_RULES } from '@/lib/schema';
import { arrowButtonText } from '@/lib/schema/buttons';

/**
 * A bot schema indexed for the engine: blocks by id, arrows by source, start triggers in a
 * stable order. Built once per published version (or draft revision, for the simulator) and
 * shared by every event that runs it.
 */
export interface CompiledBot {
  /** The published version's number, or the draft's revision. */
  revision: number;
  blocks: Map<number, Block>;
  arrowsFrom: Map<number, Arrow[]>;
  /** Start blocks with a non-empty trigger, by id: checked first on every message. */
  triggeredStarts: Block[];
  /** The entry for a new client: the start block with an empty trigger (lowest id). */
  entry: Block | null;
  /** Quick replies, by id: checked after the current block's arrows. */
  quickReplies: Block[];
  /** Reply buttons that arrows marked "show as button" add to their source block. */
  arrowButtons: Map<number, Button[]>;
  /** Some timer arrow cancels when the client leaves its block: a move then looks for such timers. */
  cancelsOnLeaving: boolean;
}

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

export function compileBot(schema: BotSchema, revision: number): CompiledBot {
  const blocks = new Map(schema.blocks.filter((b) => BLOCK_KIND_RULES[b.kind].runs).map((b) => [b.id, b]));
  const arrowsFrom = new Map<number, Arrow[]>();
  const arrowButtons = new Map<number, Button[]>();
  for (const arrow of [...schema.arrows].sort(byId)) {
    if (!blocks.has(arrow.from) || !blocks.has(arrow.to)) continue;
    arrowsFrom.set(arrow.from, [...(arrowsFrom.get(arrow.from) ?? []), arrow]);
    // The builder draws the same buttons (lib/schema/buttons.ts): only condition arrows add one.
    const label = arrowButtonText(arrow);
    if (label)
      arrowButtons.set(arrow.from, [...(arrowButtons.get(arrow.from) ?? []), { type: 'reply', text: label }]);
  }
  const sorted = [...blocks.values()].sort(byId);
  const starts = sorted.filter((b) => BLOCK_KIND_RULES[b.kind].trigger === 'first');
  return {
    revision,
    blocks,
    arrowsFrom,
    triggeredStarts: starts.filter((b) => b.trigger?.alternatives.trim()),
    entry: starts.find((b) => !b.trigger?.alternatives.trim()) ?? null,
    quickReplies: sorted.filter(
      (b) => BLOCK_KIND_RULES[b.kind].trigger === 'last' && b.trigger?.alternatives.trim(),
    ),
    arrowButtons,
    cancelsOnLeaving: schema.arrows.some((a) => a.kind === 'timer' && a.cancelIfLeft),
  };
}

export const movesClient = (block: Block) => BLOCK_KIND_RULES[block.kind].movesClient;

/**
 * Which of a project's bots: the published version clients talk to, the simulator's draft, or
 * one version a conversation test runs (`v3`).
 */
export type BotEdition = 'published' | 'draft' | `v${number}`;

const cache = new Map<string, { revision: number; bot: Promise<CompiledBot> }>();

/**
 * The compiled bot of a project's edition at a revision (a version's number, a draft's
 * revision); a newer revision replaces the cached one. Events arriving while it compiles share
 * the one load (a busy bot right after a publish).
 */
export function getCompiledBot(
  projectId: number,
  edition: BotEdition,
  revision: number,
  load: () => Promise<BotSchema>,
): Promise<CompiledBot> {
  const compile = async () => compileBot(await load(), revision);
  const key = `${projectId}:${edition}`;
  const cached = cache.get(key);
  // A failed shared load (its event's transaction failed) is this event's to retry.
  if (cached?.revision === revision) return cached.bot.catch(compile);
  const bot = compile();
  cache.set(key, { revision, bot });
  bot.catch(() => {
    if (cache.get(key)?.bot === bot) cache.delete(key);
  });
  if (cache.size > 500) cache.delete(cache.keys().next().value as string);
  return bot;
}
