import { clientFilterOptions } from '@/server/contacts/client-filter-options';
import { clientSearchInput, searchClients } from '@/server/contacts/client-search';
import { createTRPCRouter, projectProcedure } from '../init';

/** The Clients tab: every member, operators included, sees the project's clients. */
export const clientsRouter = createTRPCRouter({
  search: projectProcedure
    .input(clientSearchInput)
    .query(({ ctx, input }) => searchClients(ctx.db, ctx.projectId, input)),
  filterOptions: projectProcedure.query(({ ctx }) => clientFilterOptions(ctx.db, ctx.projectId)),
});
