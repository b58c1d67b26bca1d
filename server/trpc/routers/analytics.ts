import { analyticsQuerySchema } from '@/lib/analytics/query';
import { flowAnalytics } from '@/server/analytics/flow-analytics';
import { createTRPCRouter, projectProcedure } from '../init';

/** Per-block analytics of a published version (docs/analytics.md): every member sees them. */
export const analyticsRouter = createTRPCRouter({
  flow: projectProcedure
    .input(analyticsQuerySchema)
    .query(({ ctx, input }) => flowAnalytics(ctx.db, ctx.projectId, input)),
});
