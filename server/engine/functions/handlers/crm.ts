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

  async assign_to_user({ run, args }) {
    const projectId = run.project.id;
    const email = given(args[0]) ? String(args[0]).trim().toLowerCase() : undefined;
    const member = email
      ? await run.db.projectMember.findFirst({ where: { projectId, email, active: true } })
      : await run.db.projectMember.findFirst({
          where: { projectId, active: true },
          orderBy: [{ lastAssignedAt: { sort: 'asc', nulls: 'first' } }, { id: 'asc' }],
        });
    if (!member)
      throw new Error(
        email ? `no active employee with the e-mail ${email}` : 'the project has no active employees',
      );
    const at = run.deps.now();
    run.later(async (tx) => {
      await tx.client.update({ where: { id: run.client.id }, data: { assignedMemberId: member.id } });
      await tx.projectMember.update({ where: { id: member.id }, data: { lastAssignedAt: at } });
    });
    return member.email;
  },
} satisfies AreaHandlers;
