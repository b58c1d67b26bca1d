import { assignClient } from '@/server/contacts/assignment';
import { findStateIdByName, requireState } from '@/server/contacts/deal-service';
import { askOperator } from '../../ask-operator';
import type { AreaHandlers } from '../registry';
import { asInt, asString, given } from '../values';

/** The client's deal, its CRM state and the employee it is assigned to. */
export const crmHandlers = {
  create_order: ({ run }) => run.deals.close(),

  async change_state({ run, args }) {
    await run.deals.moveTo(await requireState(run.db, run.project.id, asInt(args[0], 'state_id')));
    return true;
  },

  get_state_id: ({ run, args }) => findStateIdByName(run.db, run.project.id, asString(args[0], 'name')),

  /**
   * Assigned at the call, in its own short transaction under the project's assignment lock (no
   * event holds a transaction while it runs), as the API's `assign_to_user` does.
   */
  async assign_to_user({ run, args }) {
    const email = given(args[0]) ? String(args[0]) : undefined;
    const assigned = await assignClient(run.db, run.project.id, run.client.id, email);
    return assigned.email;
  },

  /** The handoff (docs/inbox.md): waiting for an operator, the bot paused from here on. */
  async ask_operator({ run }) {
    await askOperator(run);
    return true;
  },
} satisfies AreaHandlers;
