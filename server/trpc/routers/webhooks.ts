import { z } from 'zod';
import { safeFetch } from '@/server/http';
import {
  getDelivery,
  listDeliveries,
  redeliver,
  sendTestEvent,
  webhookLogInput,
} from '@/server/webhooks/webhook-log';
import { createTRPCRouter, projectManagerProcedure } from '../init';

const deliveryId = z.object({
  deliveryId: z.string().regex(/^\d{1,18}$/, 'deliveryId: the id of a delivery of the log'),
});

/** The webhook log (Settings → Webhook log): owners and admins only, as the webhook's settings. */
export const webhooksRouter = createTRPCRouter({
  list: projectManagerProcedure
    .input(webhookLogInput)
    .query(({ ctx, input }) => listDeliveries(ctx.db, ctx.projectId, input)),
  get: projectManagerProcedure
    .input(deliveryId)
    .query(({ ctx, input }) => getDelivery(ctx.db, ctx.projectId, input.deliveryId)),
  redeliver: projectManagerProcedure
    .input(deliveryId)
    .mutation(({ ctx, input }) => redeliver(ctx.db, safeFetch, ctx.projectId, input.deliveryId)),
  sendTest: projectManagerProcedure.mutation(({ ctx }) => sendTestEvent(ctx.db, safeFetch, ctx.projectId)),
});
