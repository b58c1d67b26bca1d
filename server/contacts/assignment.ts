import { getClient } from '@/server/contacts/client-service';
import type { PrismaClient } from '@/server/db/client-type';
import { takeAssignmentLock } from '@/server/db/row-queries';
import { DomainError } from '@/server/errors';
import { publishLive } from '@/server/live/live-events';

/** Namespace of the advisory lock that serialises one project's round-robin picks. */
const ASSIGNMENT_LOCK = 0x61737367;

/**
 * Assigns a client to an employee: the member with this e-mail, or, without one, round-robin
 * over the active members (the one assigned longest ago). The one implementation, for the
 * API's `assign_to_user`, the in-flow `assign_to_user()` and the operators' screens alike.
 *
 * Every assignment holds the project's assignment lock until the pick is stamped: a row lock on the
 * picked member alone is not enough, because a waiting pick would get the same member back
 * once the lock is released (PostgreSQL rechecks the WHERE, not the ORDER BY). The stamp is
 * strictly after every earlier one, so picks in the same millisecond still take turns.
 */
export async function assignClient(db: PrismaClient, projectId: number, clientId: number, email?: string) {
  await getClient(db, projectId, clientId);
  const assigned = await db.$transaction(
    async (tx) => {
      await takeAssignmentLock(tx, ASSIGNMENT_LOCK, projectId);
      const member = await tx.projectMember.findFirst({
        where: { projectId, active: true, ...(email ? { email: email.trim().toLowerCase() } : {}) },
        orderBy: [{ lastAssignedAt: { sort: 'asc', nulls: 'first' } }, { id: 'asc' }],
      });
      if (!member) {
        throw new DomainError(
          'not_found',
          email
            ? `No active employee with the e-mail ${email} in this project.`
            : 'This project has no active employees to assign to.',
        );
      }
      const { _max } = await tx.projectMember.aggregate({
        where: { projectId },
        _max: { lastAssignedAt: true },
      });
      const latest = _max.lastAssignedAt?.getTime() ?? 0;
      const at = new Date(Math.max(Date.now(), latest + 1));
      await tx.client.update({ where: { id: clientId }, data: { assignedMemberId: member.id } });
      const updated = await tx.projectMember.update({
        where: { id: member.id },
        data: { lastAssignedAt: at },
      });
      return { memberId: updated.id, email: updated.email };
    },
    // Many assignments at once queue on the lock: the others wait for a connection meanwhile.
    { maxWait: 10_000 },
  );
  publishLive([{ kind: 'client', projectId, clientId }]);
  return assigned;
}

/** The members a client can be assigned to (by `assignClient`): the project's active ones. */
export function assignableMembers(db: PrismaClient, projectId: number) {
  return db.projectMember.findMany({
    where: { projectId, active: true },
    select: { id: true, name: true, email: true },
    orderBy: { email: 'asc' },
  });
}
