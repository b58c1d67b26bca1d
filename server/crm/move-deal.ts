import { z } from 'zod';
import { dealMovedMeanwhile } from '@/server/contacts/deal-service';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { handleEvent } from '@/server/engine/handle-event';
import { DomainError, notFound, parseInput } from '@/server/errors';

export const moveDealInput = z.object({
  dealId: z.number().int().positive('dealId must be a deal id (a positive whole number).'),
  stateId: z.number().int().positive('stateId must be a stage id (a positive whole number).'),
  /** The stage the mover saw the deal in (null: none); a deal found elsewhere is not moved. */
  expectedStateId: z.number().int().positive().nullable().optional(),
});

export interface MovedDeal {
  dealId: number;
  stateId: number;
  /** False when the deal already was in that stage (nothing recorded). */
  moved: boolean;
  /** The stage was won or lost: the deal is closed. */
  closed: boolean;
}

/**
 * The one way a deal is moved from outside the bot (docs/crm.md): the API's
 * `set_order_state` (by client: its open deal, opened if none) and the deals board (by deal,
 * with the stage the operator saw it in). It is an event of the client on the engine's path
 * (server/engine/handle-event.ts), so it waits for the client's lease like any event, and the
 * move is stored with a history entry (`message_from_outside` 2, the operator as its sender),
 * delivered to the webhook through the outbox, and published as a live `deal` event. No block
 * runs (the interface names no effect of a move but the move itself). A won or lost stage
 * closes the deal (`closedAt`), as a close_deal block does.
 */
export async function moveDealToStage(
  deps: EngineDeps,
  projectId: number,
  target:
    | { clientId: number; expectedStateId?: number | null }
    | { dealId: number; expectedStateId?: number | null },
  stateId: number,
  memberId?: number,
): Promise<MovedDeal> {
  let clientId: number;
  let dealId: number | null = null;
  let expectedStateId: number | null | undefined;
  if ('dealId' in target) {
    const input = parseInput(moveDealInput, { ...target, stateId });
    const deal = await deps.db.deal.findFirst({
      where: { id: input.dealId, projectId },
      select: { clientId: true, closedAt: true, stateId: true },
    });
    if (!deal)
      throw notFound(
        `Deal ${input.dealId} does not exist in this project (its client may have been deleted).`,
      );
    // Closed before the board's move arrived: the board still showed its old stage.
    if (deal.closedAt && input.expectedStateId !== undefined && input.expectedStateId !== deal.stateId)
      throw await dealMovedMeanwhile(deps.db, input.dealId);
    if (deal.closedAt)
      throw new DomainError(
        'conflict',
        `Deal #${input.dealId} is closed (won, lost or submitted): it no longer moves between stages.`,
        'dealId',
      );
    clientId = deal.clientId;
    dealId = input.dealId;
    expectedStateId = input.expectedStateId;
  } else {
    clientId = target.clientId;
    // A deal made by hand (server/crm/new-deal.ts) expects the open deal on no board yet (null).
    expectedStateId = target.expectedStateId;
  }
  const result = await handleEvent(
    deps,
    projectId,
    { clientId },
    {
      type: 'move_deal',
      stateId,
      dealId,
      expectedStateId,
      memberId,
    },
  );
  const moved = result.log.find((e) => e.kind === 'deal_moved');
  if (moved) {
    const data = moved.data as { dealId: number; kind: string };
    return { dealId: data.dealId, stateId, moved: true, closed: data.kind !== 'open' };
  }
  // Already there: the client's open deal (or the board's deal) is in that stage.
  const open =
    dealId ??
    (
      await deps.db.deal.findFirst({
        where: { projectId, clientId, closedAt: null },
        orderBy: { id: 'desc' },
      })
    )?.id;
  return { dealId: open ?? 0, stateId, moved: false, closed: false };
}
