import { NOT_PAUSED, pauseEnd } from '@/lib/inbox/pause';
import type { Db } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import { notFound } from '@/server/errors';
import { publishLive } from '@/server/live/live-events';

/**
 * The handoff between the bot and the operators (docs/inbox.md): pausing the bot for a client,
 * resuming it, and the conversation's "waiting for an operator" mark. A pause takes effect
 * from the client's next event (one already running finishes as it began).
 */

/** The client's handoff state as the inbox shows it. */
const handoffFields = {
  id: true,
  botPausedAt: true,
  botPausedUntil: true,
  waitingSince: true,
} satisfies Prisma.ClientSelect;

async function updateClient(
  db: Db,
  projectId: number,
  clientId: number,
  data: Prisma.ClientUpdateManyMutationInput,
) {
  const { count } = await db.client.updateMany({ where: { id: clientId, projectId }, data });
  if (!count) throw notFound(`Client ${clientId} does not exist in this project.`);
  publishLive([{ kind: 'client', projectId, clientId }]);
  return db.client.findUniqueOrThrow({ where: { id: clientId }, select: handoffFields });
}

/**
 * Pauses the bot for the client from now: for the project's pause timeout, or until resumed
 * by hand (`indefinitely`, or a project whose timeout is 0).
 */
export async function pauseBot(
  db: Db,
  projectId: number,
  clientId: number,
  options: { indefinitely?: boolean; now?: Date } = {},
) {
  const now = options.now ?? new Date();
  const project = await db.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { botPauseMinutes: true },
  });
  const until = options.indefinitely ? null : pauseEnd(now, project.botPauseMinutes);
  return updateClient(db, projectId, clientId, { botPausedAt: now, botPausedUntil: until });
}

/** Hands the conversation back to the bot: the client's next message is routed again. */
export function resumeBot(db: Db, projectId: number, clientId: number) {
  return updateClient(db, projectId, clientId, NOT_PAUSED);
}

/** The bot took the conversation back within an event (its final transaction); the waiting mark stays. */
export async function endPause(tx: Prisma.TransactionClient, clientId: number) {
  await tx.client.update({ where: { id: clientId }, data: NOT_PAUSED });
}

/** An operator took care of the conversation: it no longer waits. */
export function markWaitingDone(db: Db, projectId: number, clientId: number) {
  return updateClient(db, projectId, clientId, { waitingSince: null });
}

/**
 * ask_operator()'s write, in the event's final transaction: the conversation waits (since the
 * first call while it still waits), and the bot is paused unless it already was (`pause` null).
 */
export async function askForOperator(
  tx: Prisma.TransactionClient,
  clientId: number,
  at: Date,
  pause: { at: Date; until: Date | null } | null,
) {
  await tx.client.updateMany({ where: { id: clientId, waitingSince: null }, data: { waitingSince: at } });
  if (pause)
    await tx.client.update({
      where: { id: clientId },
      data: { botPausedAt: pause.at, botPausedUntil: pause.until },
    });
}
