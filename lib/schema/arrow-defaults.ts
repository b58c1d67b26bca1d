import { type Arrow, BLOCK_KIND_RULES, type Block } from './bot-schema';
import { arrowButtonText, buttonList } from './buttons';

/**
 * The kind of a new arrow drawn out of `block` (docs/builder.md, "The default arrow"): it waits
 * for a reply ("any reply") only where the block waits for one, else it continues at once.
 * - A block the client does not move into (not a state, quick reply) never waits: continue.
 * - A state block is where the designer says the client waits (a question, a menu): any reply.
 * - Any other block (start, close deal, data transfer) waits when it shows buttons, its own or
 *   arrows' shown as buttons; without them it is a greeting or a confirmation: continue.
 */
export function defaultArrowKind(block: Block, arrowsFrom: readonly Arrow[]): 'continue' | 'unconditional' {
  if (!BLOCK_KIND_RULES[block.kind].movesClient) return 'continue';
  if (block.kind === 'state') return 'unconditional';
  const buttons = buttonList(block.buttons).length > 0 || arrowsFrom.some((a) => arrowButtonText(a) !== '');
  return buttons ? 'unconditional' : 'continue';
}
