import type { Block } from '@/lib/schema';
import type { RunState } from '../run-state';

/** Step 1: the block's actions: move the deal to a CRM state, add to and remove from lists. */
export async function actionsStep(run: RunState, block: Block): Promise<void> {
  const actions = block.actions;
  if (!actions) return;
  if (actions.crmStateId) {
    const state = await run.db.crmState.findFirst({
      where: { id: actions.crmStateId, projectId: run.project.id },
    });
    if (state) run.setDealState(state.id);
    else run.note('error', { blockId: block.id, message: `CRM state ${actions.crmStateId} does not exist.` });
  }
  const wanted = [...actions.addToLists, ...actions.removeFromLists];
  if (!wanted.length) return;
  const lists = await run.db.clientList.findMany({
    where: { projectId: run.project.id, id: { in: wanted } },
    select: { id: true },
  });
  const known = new Set(lists.map((l) => l.id));
  for (const id of actions.addToLists) if (known.has(id)) run.setListMember(id, true);
  for (const id of actions.removeFromLists) if (known.has(id)) run.setListMember(id, false);
}
