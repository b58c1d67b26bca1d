import type { Value } from '@/lib/formula';
import { requireList } from '@/server/contacts/list-service';
import type { RunContext } from '@/server/engine/run-context';
import type { AreaHandlers } from '../registry';
import { asInt } from '../values';

/** The list named by the first argument, which must be one of the project's. */
async function listOf(run: RunContext, args: Value[]): Promise<number> {
  return (await requireList(run.db, run.project.id, asInt(args[0], 'list_id'))).id;
}

/** The client's membership of the project's client lists. */
export const listHandlers = {
  async add_to_list({ run, args }) {
    run.lists.set(await listOf(run, args), true);
    return true;
  },
  async remove_from_list({ run, args }) {
    run.lists.set(await listOf(run, args), false);
    return true;
  },
  inlist: async ({ run, args }) => run.lists.has(await listOf(run, args)),
  list_size: async ({ run, args }) => run.lists.size(await listOf(run, args)),
} satisfies AreaHandlers;
