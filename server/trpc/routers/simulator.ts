import { z } from 'zod';
import {
  simulatorFireNow,
  simulatorReset,
  simulatorSend,
  simulatorState,
} from '@/server/channels/simulator/simulator-service';
import { getEngineDeps } from '@/server/engine/engine';
import { createTRPCRouter, projectProcedure } from '../init';

export const simulatorRouter = createTRPCRouter({
  state: projectProcedure.query(async ({ ctx }) =>
    simulatorState(await getEngineDeps(), ctx.projectId, ctx.userId),
  ),

  /** A text or a button press (a button sends its text). */
  send: projectProcedure
    .input(z.object({ text: z.string().max(10_000) }))
    .mutation(async ({ ctx, input }) => {
      const user = { id: ctx.userId, name: ctx.session.user.name };
      const result = await simulatorSend(await getEngineDeps(), ctx.projectId, user, input.text);
      return { currentBlockId: result.currentBlockId, messages: result.messages.length };
    }),

  reset: projectProcedure.mutation(async ({ ctx }) =>
    simulatorReset(await getEngineDeps(), ctx.projectId, ctx.userId),
  ),

  fireNow: projectProcedure
    .input(z.object({ scheduledSendId: z.number().int().positive() }))
    .mutation(async ({ ctx, input }) => {
      const result = await simulatorFireNow(
        await getEngineDeps(),
        ctx.projectId,
        ctx.userId,
        input.scheduledSendId,
      );
      return { fired: result !== null };
    }),
});
