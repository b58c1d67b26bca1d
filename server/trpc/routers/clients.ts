import { clientFilterOptions } from '@/server/contacts/client-filter-options';
import { clientSearchInput, searchClients } from '@/server/contacts/client-search';
import { historyPage, historyPageInput } from '@/server/contacts/history-service';
import { createTRPCRouter, projectProcedure } from '../init';

/** The Clients tab and the client profile: every member, operators included, sees the project's clients. */
export const clientsRouter = createTRPCRouter({
  search: projectProcedure
    .input(clientSearchInput)
    .query(({ ctx, input }) => searchClients(ctx.db, ctx.projectId, input)),
  filterOptions: projectProcedure.query(({ ctx }) => clientFilterOptions(ctx.db, ctx.projectId)),
  history: projectProcedure
    .input(historyPageInput)
    .query(({ ctx, input }) => historyPage(ctx.db, ctx.projectId, input)),
});
