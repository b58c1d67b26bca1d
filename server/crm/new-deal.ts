import { z } from 'zod';
import { clientDisplayName } from '@/lib/client-display';
import { getClient, lockClients } from '@/server/contacts/client-service';
import { requireState } from '@/server/contacts/deal-service';
import { applyVariableChanges, type VariableChange, validateChanges } from '@/server/contacts/variable-store';
import type { Db } from '@/server/db/client-type';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { DomainError, parseInput } from '@/server/errors';
import { moveDealToStage } from './move-deal';

/** Variables typed with a new deal: a few, as on the deal panel. */
const MAX_NEW_VARIABLES = 20;

export const newDealInput = z.object({
  clientId: z.number().int().positive('clientId: choose a client.'),
  stateId: z.number().int().positive('stateId: choose a stage.'),
  variables: z
    .array(
      z.object({
        name: z.string().trim().min(1, 'A variable needs a name.'),
        value: z.string(),
      }),
    )
    .max(MAX_NEW_VARIABLES, `At most ${MAX_NEW_VARIABLES} variables with a new deal; add more on its panel.`)
    .default([]),
});

/** The refusal when the client's open deal is on a board already: one open deal per client. */
async function alreadyOnBoard(db: Db, projectId: number, clientId: number): Promise<DomainError | null> {
  const open = await db.deal.findFirst({
    where: { projectId, clientId, closedAt: null, stateId: { not: null } },
    orderBy: { id: 'desc' },
    select: {
      id: true,
      client: { select: { id: true, name: true, clientType: true } },
      state: { select: { name: true, funnel: { select: { name: true } } } },
    },
  });
  if (!open) return null;
  return new DomainError(
    'conflict',
    `${clientDisplayName(open.client)} already has an open deal, #${open.id} in "${open.state?.name}" (${open.state?.funnel.name}): a client has one open deal at a time. Open it on the board, or move it to Won or Lost first.`,
    'clientId',
  );
}

/**
 * A deal made by hand on the board (docs/crm.md): the client's open deal (the one the bot
 * collects variables into, opened if none) put in an open stage by the one move operation
 * (`moveDealToStage`, as the API's set_order_state: a history entry with the member as its
 * sender, the webhook, the boards' live event), then the variables typed with it saved on that
 * deal. A client whose open deal is already on a board is refused, naming it.
 */
export async function createDealByHand(
  deps: EngineDeps,
  projectId: number,
  rawInput: z.input<typeof newDealInput>,
  memberId: number,
): Promise<{ dealId: number; stateId: number }> {
  const input = parseInput(newDealInput, rawInput);
  const { db } = deps;
  await getClient(db, projectId, input.clientId);
  const stage = await requireState(db, projectId, input.stateId);
  if (stage.kind !== 'open')
    throw new DomainError(
      'invalid',
      `A new deal starts in an open stage, not in "${stage.name}" (${stage.kind}); move it there afterwards.`,
      'stateId',
    );
  const changes: VariableChange[] = input.variables.map((v) => ({ name: v.name, value: v.value }));
  validateChanges(changes);
  const taken = await alreadyOnBoard(db, projectId, input.clientId);
  if (taken) throw taken;
  const moved = await moveDealToStage(
    deps,
    projectId,
    { clientId: input.clientId, expectedStateId: null },
    stage.id,
    memberId,
  ).catch(async (error: unknown) => {
    // Put on a board meanwhile (the bot, another member): said as the check above says it.
    if (error instanceof DomainError && error.code === 'conflict')
      throw (await alreadyOnBoard(db, projectId, input.clientId)) ?? error;
    throw error;
  });
  if (changes.length)
    await deps.db.$transaction(async (tx) => {
      await lockClients(tx, projectId, [input.clientId]);
      await applyVariableChanges(tx, { projectId, clientId: input.clientId, dealId: moved.dealId }, changes);
    });
  return { dealId: moved.dealId, stateId: stage.id };
}
