import type { PrismaClient } from '@/server/db/client-type';
import { plainSql } from '@/server/db/raw-sql';
import { wakeOutboxSweeper } from './outbox';
import { releaseHeld } from './store/outbox';

/**
 * Held sends (DeliveryResult.retryAt) of a channel's clients, made due now: the messenger is
 * back (a session paired again), so they go at once, in order, rather than at their next try.
 * `groupId` narrows them to one bot or number of the channel. How many were released.
 */
export async function releaseHeldSends(
  db: PrismaClient,
  where: { projectId: number; clientType: number; groupId?: string },
): Promise<number> {
  const released = await plainSql(db).run(releaseHeld, {
    projectId: where.projectId,
    clientType: where.clientType,
    groupId: where.groupId ?? null,
  });
  if (released.length) wakeOutboxSweeper();
  return released.length;
}
