import { z } from 'zod';
import { SIMULATOR_EDITIONS, type SimulatorEdition } from '@/lib/simulator/editions';
import {
  simulatorFireNow,
  simulatorReset,
  simulatorSend,
  simulatorState,
} from '@/server/channels/simulator/simulator-service';
import { getEngineDeps } from '@/server/engine/engine';
import { createTRPCRouter, projectProcedure } from '../init';

/** The draft (default) or the published version: each has its own test conversation. */
const edition = z.enum(SIMULATOR_EDITIONS as [SimulatorEdition, ...SimulatorEdition[]]).default('draft');

export const simulatorRouter = createTRPCRouter({
  state: projectProcedure
    .input(z.object({ edition }))
    .query(async ({ ctx, input }) =>
      simulatorState(await getEngineDeps(), ctx.projectId, ctx.userId, input.edition),
    ),

  /** A text or a button press (a button sends its text). */
  send: projectProcedure
    .input(z.object({ text: z.string().max(10_000), edition }))
    .mutation(async ({ ctx, input }) => {
      const user = { id: ctx.userId, name: ctx.session.user.name };
      const result = await simulatorSend(
        await getEngineDeps(),
        ctx.projectId,
        user,
        input.text,
        input.edition,
      );
      return { currentBlockId: result.currentBlockId, messages: result.messages.length };
    }),

  reset: projectProcedure
    .input(z.object({ edition }))
    .mutation(async ({ ctx, input }) =>
      simulatorReset(await getEngineDeps(), ctx.projectId, ctx.userId, input.edition),
    ),

  fireNow: projectProcedure
    .input(z.object({ scheduledSendId: z.number().int().positive(), edition }))
    .mutation(async ({ ctx, input }) => {
      const result = await simulatorFireNow(
        await getEngineDeps(),
        ctx.projectId,
        ctx.userId,
        input.scheduledSendId,
        input.edition,
      );
      return { fired: result !== null };
    }),
});
