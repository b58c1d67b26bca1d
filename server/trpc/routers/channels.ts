import { z } from 'zod';
import { disconnectChannel, listChannels } from '@/server/channels/channel-list';
import {
  type NamedOperationInput,
  operationInput,
  runOperation,
  type SlotOperationInput,
} from '@/server/channels/channel-operations';
import { createTRPCRouter, projectManagerProcedure, projectProcedure } from '../init';

/**
 * The Channels tab: every member sees the connected channels; owners and admins connect,
 * change and disconnect them. What each kind takes and does is its module's
 * (server/channels/channel-operations.ts): the input names the `kind`.
 */
export const channelsRouter = createTRPCRouter({
  list: projectProcedure.query(({ ctx }) => listChannels(ctx.db, ctx.projectId)),
  /** Connects a channel of a kind (creates a widget). */
  connect: projectManagerProcedure
    .input(operationInput<SlotOperationInput<'connect'>>('connect'))
    .mutation(({ ctx, input }) => runOperation(ctx.db, ctx.projectId, 'connect', input)),
  /** Changes a channel's settings (the input names its `channelId`). */
  update: projectManagerProcedure
    .input(operationInput<SlotOperationInput<'update'>>('update'))
    .mutation(({ ctx, input }) => runOperation(ctx.db, ctx.projectId, 'update', input)),
  /** A kind's own read (a gateway session's state and QR code, polled while it pairs). */
  query: projectManagerProcedure
    .input(operationInput<NamedOperationInput<'queries'>>('queries'))
    .query(({ ctx, input }) => runOperation(ctx.db, ctx.projectId, 'queries', input)),
  /** A kind's own change (a gateway session's restart). */
  act: projectManagerProcedure
    .input(operationInput<NamedOperationInput<'actions'>>('actions'))
    .mutation(({ ctx, input }) => runOperation(ctx.db, ctx.projectId, 'actions', input)),
  disconnect: projectManagerProcedure
    .input(z.object({ channelId: z.number().int().positive() }))
    .mutation(({ ctx, input }) => disconnectChannel(ctx.db, ctx.projectId, input.channelId)),
});
