import { runTestRequest, testRequestInput } from '@/server/projects/run-test-request';
import { createTRPCRouter, projectManagerProcedure } from '../init';

export const requestTestRouter = createTRPCRouter({
  /** The request form's "Test request": sent through the safe client with sample values; part of editing the bot. */
  run: projectManagerProcedure
    .input(testRequestInput)
    .mutation(({ ctx, input }) => runTestRequest(ctx.db, ctx.projectId, input)),
});
