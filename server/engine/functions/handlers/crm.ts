import { assignClient } from '@/server/contacts/assignment';
import type { AreaHandlers } from '../registry';
import { asInt, asString, given } from '../values';

/** The client's deal, its CRM state and the employee it is assigned to. */
export const crmHandlers = {
  create_order: ({ run }) => run.closeDeal(),

  async change_state({ run, args }) {
    const stateId = asInt(args[0], 'state_id');
    const state = await run.db.crmState.findFirst({ where: { id: stateId, projectId: run.project.id } });
    if (!state) throw new Error(`CRM state ${stateId} does not exist`);
    run.setDealState(stateId);
    return true;
  },

  async get_state_id({ run, args }) {
    const state = await run.db.crmState.findFirst({
      where: {
        projectId: run.project.id,
        name: { equals: asString(args[0], 'name'), mode: 'insensitive' },
      },
      orderBy: [{ funnelId: 'asc' }, { position: 'asc' }],
    });
    return state?.id ?? null;
  },

  /**
   * Assigned at the call, in its own short transaction under the project's assignment lock (no
   * event holds a transaction while it runs), as the API's `assign_to_user` does.
   */
  async assign_to_user({ run, args }) {
    const email = given(args[0]) ? String(args[0]) : undefined;
    const assigned = await assignClient(run.db, run.project.id, run.client.id, email);
    return assigned.email;
  },
} satisfies AreaHandlers;
