import { getClient } from '@/server/contacts/client-service';
import type { PrismaClient } from '@/server/db/client-type';
import { DomainError } from '@/server/errors';

/**
 * Assigns a client to an employee: the member with this e-mail, or, without one, round-robin
 * over the active members (the one assigned longest ago).
 */
export async function assignClient(db: PrismaClient, projectId: number, clientId: number, email?: string) {
  await getClient(db, projectId, clientId);
  return db.$transaction(async (tx) => {
    const member = email
      ? await tx.projectMember.findFirst({
          where: { projectId, email: email.trim().toLowerCase(), active: true },
        })
      : (
          await tx.$queryRaw<{ id: number }[]>`
            SELECT id FROM "ProjectMember" WHERE "projectId" = ${projectId} AND active
            ORDER BY "lastAssignedAt" ASC NULLS FIRST, id ASC LIMIT 1 FOR UPDATE`
        ).at(0);
    if (!member) {
      throw new DomainError(
        'not_found',
        email
          ? `No active employee with the e-mail ${email} in this project.`
          : 'This project has no active employees to assign to.',
      );
    }
    await tx.client.update({ where: { id: clientId }, data: { assignedMemberId: member.id } });
    const updated = await tx.projectMember.update({
      where: { id: member.id },
      data: { lastAssignedAt: new Date() },
    });
    return { memberId: updated.id, email: updated.email };
  });
}
