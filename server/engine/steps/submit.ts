import { BLOCK_KIND_RULES, type Block } from '@/lib/schema';
import type { RunContext } from '../run-context';

/**
 * Red and yellow blocks: the deal's variables become a submission (written with the event);
 * a block that does not keep the deal closes it and starts the next one empty.
 */
export async function submitStep(run: RunContext, block: Block): Promise<void> {
  const rules = BLOCK_KIND_RULES[block.kind];
  if (!rules.submits) return;
  const variables = run.variables.dealValues();
  const submissionId = await run.deals.submit(block.id, variables, rules.keepsDeal);
  run.note('submission', { blockId: block.id, submissionId, variables, kept: rules.keepsDeal });
  // Save what was collected with the deal, close it, and start the next one empty.
  if (!rules.keepsDeal) await run.deals.close();
}
