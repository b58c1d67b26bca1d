import { lockClients, openDeal } from '@/server/contacts/client-service';
import type { Db, PrismaClient } from '@/server/db/client-type';
import { notFound } from '@/server/errors';

export async function requireState(db: Db, projectId: number, stateId: number) {
  const state = await db.crmState.findFirst({ where: { id: stateId, projectId } });
  if (!state)
    throw notFound(
      `CRM state ${stateId} does not exist in this project. State ids are shown in the CRM funnel editor.`,
    );
  return state;
}

/**
 * Moves the client's open deal (created if none) to a CRM state. Under the client's lock, as
 * events take it, so calls at once for a client without a deal open one deal, not several.
 */
export async function setDealState(db: PrismaClient, projectId: number, clientId: number, stateId: number) {
  await requireState(db, projectId, stateId);
  return db.$transaction(async (tx) => {
    await lockClients(tx, projectId, [clientId]);
    const deal = await openDeal(tx, projectId, clientId);
    return tx.deal.update({ where: { id: deal.id }, data: { stateId } });
  });
}

/** The id of a state by its name (first funnel first), or null. */
export async function findStateIdByName(db: Db, projectId: number, name: string) {
  const state = await db.crmState.findFirst({
    where: { projectId, name: { equals: name, mode: 'insensitive' } },
    orderBy: [{ funnelId: 'asc' }, { position: 'asc' }],
  });
  return state?.id ?? null;
}
