import { MESSAGE_FROM } from '@/lib/history-message';
import type { Db } from '@/server/db/client-type';
import { shareLockCrmStage } from '@/server/db/row-queries';
import { DomainError, notFound } from '@/server/errors';

export async function requireState(db: Db, projectId: number, stateId: number) {
  const state = await db.crmState.findFirst({ where: { id: stateId, projectId } });
  if (!state)
    throw notFound(
      `CRM state ${stateId} does not exist in this project. State ids are shown in the CRM funnel editor.`,
    );
  return state;
}

/**
 * Writes a deal's new CRM stage (the engine's final write: every move takes the engine's path,
 * server/crm/move-deal.ts). The stage row is share-locked first: a stage being deleted
 * (`deleteStage` holds it for update and moves its deals) is waited for, and a move into a
 * stage deleted meanwhile is refused instead of failing on the foreign key.
 */
export async function moveDeal(db: Db, dealId: number, stateId: number) {
  if (!(await shareLockCrmStage(db, stateId)))
    throw new DomainError(
      'conflict',
      `Stage ${stateId} was deleted meanwhile: the deal was not moved. Reload the board and choose another stage.`,
      'stateId',
    );
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

/**
 * The refusal of a move whose deal is no longer where the mover saw it (`expectedStateId`):
 * names who moved it last and where, so an operator who lost a race knows what happened,
 * whether the winner moved it to an open stage or closed it.
 */
export async function dealMovedMeanwhile(db: Db, dealId: number): Promise<DomainError> {
  const deal = await db.deal.findUnique({ where: { id: dealId }, include: { state: true } });
  const move = await db.message.findFirst({
    where: { clientId: deal?.clientId ?? 0, messageFromOutside: MESSAGE_FROM.crm, direction: 'in' },
    orderBy: { id: 'desc' },
    select: { senderMember: { select: { name: true, email: true } } },
  });
  const member = move?.senderMember;
  const by = member ? member.name || member.email : 'Someone else';
  const where = `"${deal?.state?.name ?? 'no stage'}"`;
  return deal?.closedAt
    ? new DomainError(
        'conflict',
        `${by} moved this deal to ${where} meanwhile: it is closed now and no longer moves between stages. Reload the board.`,
        'dealId',
      )
    : new DomainError(
        'conflict',
        `${by} moved this deal to ${where} meanwhile: it stays there. Drag it again if it should still move.`,
        'expectedStateId',
      );
}
