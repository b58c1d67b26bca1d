import { z } from 'zod';
import { boardFunnel, rememberBoardFunnel } from '@/server/crm/board-funnel';
import { boardColumn, boardColumnInput, dealDetail } from '@/server/crm/deal-board';
import {
  createFunnel,
  createStage,
  deleteFunnel,
  deleteStage,
  listFunnels,
  reorderFunnels,
  reorderStages,
  updateFunnel,
  updateStage,
} from '@/server/crm/funnel-service';
import { moveDealInput, moveDealToStage } from '@/server/crm/move-deal';
import { createDealByHand, newDealInput } from '@/server/crm/new-deal';
import { getEngineDeps } from '@/server/engine/engine';
import { createTRPCRouter, projectManagerProcedure, projectProcedure } from '../init';

const id = (what: string) => z.number().int().positive(`${what} must be a positive whole number.`);
const order = z.array(id('Each id')).min(1, 'order: list every id once, in the new order.');

/**
 * CRM funnels, stages and deals (docs/crm.md). Admins (owners and admins) configure funnels
 * and stages; every member, operators included, reads them and moves deals.
 */
export const crmRouter = createTRPCRouter({
  funnels: projectProcedure.query(({ ctx }) => listFunnels(ctx.db, ctx.projectId)),

  createFunnel: projectManagerProcedure
    .input(z.object({ name: z.string() }))
    .mutation(({ ctx, input }) => createFunnel(ctx.db, ctx.projectId, input)),
  updateFunnel: projectManagerProcedure
    .input(
      z.object({
        funnelId: id('funnelId'),
        name: z.string().optional(),
        cardVariables: z.array(z.string()).optional(),
      }),
    )
    .mutation(({ ctx, input }) => updateFunnel(ctx.db, ctx.projectId, input.funnelId, input)),
  reorderFunnels: projectManagerProcedure
    .input(z.object({ order }))
    .mutation(({ ctx, input }) => reorderFunnels(ctx.db, ctx.projectId, input.order)),
  deleteFunnel: projectManagerProcedure
    .input(z.object({ funnelId: id('funnelId'), moveToStateId: id('moveToStateId').nullable() }))
    .mutation(({ ctx, input }) => deleteFunnel(ctx.db, ctx.projectId, input.funnelId, input.moveToStateId)),

  createStage: projectManagerProcedure
    .input(z.object({ funnelId: id('funnelId'), name: z.string(), color: z.string().optional() }))
    .mutation(({ ctx, input }) => createStage(ctx.db, ctx.projectId, input.funnelId, input)),
  updateStage: projectManagerProcedure
    .input(z.object({ stateId: id('stateId'), name: z.string().optional(), color: z.string().optional() }))
    .mutation(({ ctx, input }) => updateStage(ctx.db, ctx.projectId, input.stateId, input)),
  reorderStages: projectManagerProcedure
    .input(z.object({ funnelId: id('funnelId'), order }))
    .mutation(({ ctx, input }) => reorderStages(ctx.db, ctx.projectId, input.funnelId, input.order)),
  deleteStage: projectManagerProcedure
    .input(z.object({ stateId: id('stateId'), moveToStateId: id('moveToStateId').nullable() }))
    .mutation(({ ctx, input }) => deleteStage(ctx.db, ctx.projectId, input.stateId, input.moveToStateId)),

  /** The funnel this member's board opens on (the one they last viewed), null at first. */
  boardFunnel: projectProcedure.query(async ({ ctx }) => ({
    funnelId: await boardFunnel(ctx.db, ctx.member.id),
  })),
  rememberBoardFunnel: projectProcedure
    .input(z.object({ funnelId: id('funnelId') }))
    .mutation(({ ctx, input }) => rememberBoardFunnel(ctx.db, ctx.projectId, ctx.member.id, input.funnelId)),

  /** A page of a board column (and the table view): every member, operators included. */
  column: projectProcedure
    .input(boardColumnInput)
    .query(({ ctx, input }) => boardColumn(ctx.db, ctx.projectId, input)),
  deal: projectProcedure
    .input(z.object({ dealId: id('dealId') }))
    .query(({ ctx, input }) => dealDetail(ctx.db, ctx.projectId, input.dealId)),

  /** The board's drag: the same operation as the API's set_order_state, with who moved it. */
  moveDeal: projectProcedure
    .input(moveDealInput)
    .mutation(async ({ ctx, input }) =>
      moveDealToStage(
        await getEngineDeps(),
        ctx.projectId,
        { dealId: input.dealId, expectedStateId: input.expectedStateId },
        input.stateId,
        ctx.member.id,
      ),
    ),
  /** A deal made by hand: the same move, into an open stage, with the variables typed. */
  createDeal: projectProcedure
    .input(newDealInput)
    .mutation(async ({ ctx, input }) =>
      createDealByHand(await getEngineDeps(), ctx.projectId, input, ctx.member.id),
    ),
});
