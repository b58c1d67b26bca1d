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
    return moveDeal(tx, deal.id, stateId);
  });
}

/** Moves a deal to a CRM state (known to be the project's): for the API, the engine and the UI alike. */
export function moveDeal(db: Db, dealId: number, stateId: number) {
  return db.deal.update({ where: { id: dealId }, data: { stateId } });
}

/**
 * Closes a deal and opens the client's next one, empty (close_deal blocks, `create_order()`).
 * The next deal's id is drawn beforehand, so the engine knows it before its final write.
 */
export async function closeDeal(
  db: Db,
  closed: { dealId: number; at: Date },
  next: { id: number; projectId: number; clientId: number },
) {
  await db.deal.update({ where: { id: closed.dealId }, data: { closedAt: closed.at } });
  await db.deal.create({ data: next });
}

/** Stores a submission of a deal's variables (red and yellow blocks); its id drawn beforehand. */
export function recordSubmission(
  db: Db,
  submission: {
    id: number;
    projectId: number;
    clientId: number;
    dealId: number;
    blockId: number;
    variables: Record<string, string>;
    /** Yellow blocks keep the deal open. */
    kept: boolean;
  },
) {
  return db.submission.create({ data: submission });
}

/** The id of a state by its name (first funnel first), or null. */
export async function findStateIdByName(db: Db, projectId: number, name: string) {
  const state = await db.crmState.findFirst({
    where: { projectId, name: { equals: name, mode: 'insensitive' } },
    orderBy: [{ funnelId: 'asc' }, { position: 'asc' }],
  });
  return state?.id ?? null;
}
