import type { Block } from '@/lib/schema';
import { requireState } from '@/server/contacts/deal-service';
import { DomainError } from '@/server/errors';
import type { RunContext } from '../run-context';

/** Step 1: the block's actions: move the deal to a CRM state, add to and remove from lists. */
export async function actionsStep(run: RunContext, block: Block): Promise<void> {
  const actions = block.actions;
  if (!actions) return;
  if (actions.crmStateId) {
    const state = await requireState(run.db, run.project.id, actions.crmStateId).catch((error: unknown) => {
      if (!(error instanceof DomainError)) throw error;
      run.note('error', { blockId: block.id, message: error.message });
      return null;
    });
    if (state) await run.deals.moveTo(state);
  }
  const wanted = [...actions.addToLists, ...actions.removeFromLists];
  if (!wanted.length) return;
  const lists = await run.db.clientList.findMany({
    where: { projectId: run.project.id, id: { in: wanted } },
    select: { id: true },
  });
  const known = new Set(lists.map((l) => l.id));
  for (const id of actions.addToLists) if (known.has(id)) run.lists.set(id, true);
  for (const id of actions.removeFromLists) if (known.has(id)) run.lists.set(id, false);
}
