import { submissionBlocks, submissionPage, submissionPageInput } from '@/server/contacts/submission-listing';
import { createTRPCRouter, projectProcedure } from '../init';

/** The Submissions page (docs/crm.md): every member, operators included, reads red and yellow blocks' submissions. */
export const submissionsRouter = createTRPCRouter({
  blocks: projectProcedure.query(({ ctx }) => submissionBlocks(ctx.db, ctx.projectId)),
  page: projectProcedure
    .input(submissionPageInput)
    .query(({ ctx, input }) => submissionPage(ctx.db, ctx.projectId, input)),
});
