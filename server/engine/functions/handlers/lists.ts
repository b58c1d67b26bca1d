import type { Value } from '@/lib/formula';
import type { RunState } from '@/server/engine/run-state';
import type { AreaHandlers } from '../registry';
import { asInt } from '../values';

/** The list named by the first argument, which must be one of the project's. */
async function listOf(run: RunState, args: Value[]): Promise<number> {
  const listId = asInt(args[0], 'list_id');
  const list = await run.db.clientList.findFirst({ where: { id: listId, projectId: run.project.id } });
  if (!list) throw new Error(`list ${listId} does not exist`);
  return listId;
}

/** The client's membership of the project's client lists. */
export const listHandlers = {
  async add_to_list({ run, args }) {
    run.setListMember(await listOf(run, args), true);
    return true;
  },
  async remove_from_list({ run, args }) {
    run.setListMember(await listOf(run, args), false);
    return true;
  },
  inlist: async ({ run, args }) => run.inList(await listOf(run, args)),
  list_size: async ({ run, args }) => run.listSize(await listOf(run, args)),
} satisfies AreaHandlers;
