import { z } from 'zod';
import { deleteClient, resetDialogue, sendClientToBlock } from '@/server/contacts/client-actions';
import { clientFilterOptions } from '@/server/contacts/client-filter-options';
import { clientProfile } from '@/server/contacts/client-profile';
import { clientSearchInput, searchClients } from '@/server/contacts/client-search';
import { saveClientVariables } from '@/server/contacts/client-variables-service';
import { historyPage, historyPageInput } from '@/server/contacts/history-service';
import { VARIABLE_LIMITS } from '@/server/contacts/variable-limits';
import { getEngineDeps } from '@/server/engine/engine';
import { canManageProject } from '@/server/projects/membership';
import { createTRPCRouter, projectManagerProcedure, projectProcedure } from '../init';

const clientInput = z.object({ clientId: z.number().int().positive() });

/**
 * The Clients tab and the client profile: every member, operators included, sees the
 * project's clients, edits their variables and moves them in the bot; deleting one is for
 * owners and admins.
 */
export const clientsRouter = createTRPCRouter({
  search: projectProcedure
    .input(clientSearchInput)
    .query(({ ctx, input }) => searchClients(ctx.db, ctx.projectId, input)),
  filterOptions: projectProcedure.query(({ ctx }) => clientFilterOptions(ctx.db, ctx.projectId)),

  profile: projectProcedure.input(clientInput).query(async ({ ctx, input }) => ({
    ...(await clientProfile(ctx.db, ctx.projectId, input.clientId)),
    canDelete: canManageProject(ctx.member.role),
  })),
  history: projectProcedure
    .input(historyPageInput)
    .query(({ ctx, input }) => historyPage(ctx.db, ctx.projectId, input)),

  /** As the API's save_variables: `client.` names the profile's, others the deal's; null clears. */
  saveVariables: projectProcedure
    .input(
      clientInput.extend({
        variables: z
          .record(z.string(), z.string().nullable())
          .refine((v) => Object.keys(v).length <= VARIABLE_LIMITS.perOwner, {
            error: `At most ${VARIABLE_LIMITS.perOwner} variables can be saved at once.`,
          }),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await saveClientVariables(ctx.db, ctx.projectId, [input.clientId], input.variables);
    }),
  sendToBlock: projectProcedure
    .input(clientInput.extend({ blockId: z.number().int().positive() }))
    .mutation(async ({ ctx, input }) =>
      sendClientToBlock(await getEngineDeps(), ctx.projectId, input.clientId, input.blockId),
    ),
  reset: projectProcedure
    .input(clientInput)
    .mutation(async ({ ctx, input }) => resetDialogue(await getEngineDeps(), ctx.projectId, input.clientId)),
  delete: projectManagerProcedure
    .input(clientInput)
    .mutation(({ ctx, input }) => deleteClient(ctx.db, ctx.projectId, input.clientId)),
});
