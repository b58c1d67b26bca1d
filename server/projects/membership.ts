import type { Db } from '@/server/db/client-type';
import { DomainError } from '@/server/errors';

/**
 * The user's membership of the project, or an error. A project the user is not a member of
 * answers exactly like a project that does not exist, so ids cannot be probed.
 */
export async function requireMembership(db: Db, userId: string, projectId: number) {
  const member = await db.projectMember.findFirst({ where: { projectId, userId, active: true } });
  if (!member)
    throw new DomainError('not_found', `Project ${projectId} does not exist or you are not a member of it.`);
  return member;
}

export { canManageProject } from '@/lib/team/member-rules';
