import { z } from 'zod';
import { SIMULATOR_EDITIONS, type SimulatorEdition } from '@/lib/simulator/editions';
import {
  simulatorFireNow,
  simulatorReset,
  simulatorSend,
  simulatorSetClient,
  simulatorState,
  testClientInput,
} from '@/server/channels/simulator/simulator-service';
import { getEngineDeps } from '@/server/engine/engine';
import { createTRPCRouter, projectProcedure } from '../init';

/** The draft (default) or the published version: each has its own test conversation. */
const edition = z.enum(SIMULATOR_EDITIONS as [SimulatorEdition, ...SimulatorEdition[]]).default('draft');

export const simulatorRouter = createTRPCRouter({
  state: projectProcedure.input(z.object({ edition })).query(async ({ ctx, input }) => {
    const state = await simulatorState(await getEngineDeps(), ctx.projectId, ctx.userId, input.edition);
    // Before it first writes, the test client is to be the member: their name is its name.
    return { ...state, clientName: state.clientName ?? ctx.session.user.name };
  }),

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

  /** The test client's name, phone, e-mail and language (the "Test client" form). */
  setClient: projectProcedure.input(testClientInput.extend({ edition })).mutation(async ({ ctx, input }) => {
    const { edition: chosen, ...profile } = input;
    await simulatorSetClient(await getEngineDeps(), ctx.projectId, ctx.userId, profile, chosen);
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
