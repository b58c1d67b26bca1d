import { z } from 'zod';
import {
  MEMBER_ROLES,
  type MemberChange,
  type MemberRole,
  refuseMemberChange,
} from '@/lib/team/member-rules';
import type { Db, PrismaClient } from '@/server/db/client-type';
import { takeAssignmentLock } from '@/server/db/row-queries';
import { DomainError, notFound, parseInput } from '@/server/errors';
import { createInvite, type IssuedInvite, revokeInvites } from './invites';

/** Namespace of the advisory lock that serialises one project's team changes (the last-owner rule). */
const TEAM_LOCK = 0x7465616d;

const emailSchema = z
  .email('must be an e-mail address, like ann@example.com')
  .max(254)
  .transform((e) => e.toLowerCase());

export const inviteMemberInput = z.object({
  email: z.string().trim().pipe(emailSchema),
  name: z.string().trim().max(100).default(''),
  role: z.enum(MEMBER_ROLES),
});

/** The caller: their membership of the project. */
export interface Actor {
  memberId: number;
  role: MemberRole;
}

/** The project's members, owners first, with when each joined or their pending invite's expiry. */
export async function listMembers(db: Db, projectId: number) {
  const members = await db.projectMember.findMany({
    where: { projectId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: {
      id: true,
      email: true,
      name: true,
      role: true,
      active: true,
      userId: true,
      createdAt: true,
      lastAssignedAt: true,
      invites: {
        where: { revokedAt: null },
        orderBy: { createdAt: 'desc' },
        take: 1,
        select: { expiresAt: true, usedAt: true },
      },
    },
  });
  const order: Record<MemberRole, number> = { owner: 0, admin: 1, operator: 2 };
  return members
    .map(({ userId, invites, ...m }) => ({
      ...m,
      joined: userId !== null,
      // An invited member joined when they used the link; the project's creator, when it was made.
      joinedAt: userId === null ? null : (invites[0]?.usedAt ?? m.createdAt),
      inviteExpiresAt: userId === null ? (invites[0]?.expiresAt ?? null) : null,
    }))
    .sort((a, b) => order[a.role] - order[b.role]);
}

/** A manager's change to the team, under the project's team lock so two owners never both step down. */
async function changeMember<T>(
  db: PrismaClient,
  projectId: number,
  actor: Actor,
  memberId: number | null,
  change: MemberChange,
  apply: (tx: Db) => Promise<T>,
): Promise<T> {
  return db.$transaction(async (tx) => {
    await takeAssignmentLock(tx, TEAM_LOCK, projectId);
    const target =
      memberId === null ? null : await tx.projectMember.findFirst({ where: { id: memberId, projectId } });
    if (memberId !== null && !target) throw notFound(`Member ${memberId} does not exist in this project.`);
    const lastOwner =
      target !== null &&
      target.role === 'owner' &&
      target.active &&
      target.userId !== null &&
      (await tx.projectMember.count({
        where: { projectId, role: 'owner', active: true, userId: { not: null }, id: { not: target.id } },
      })) === 0;
    const refusal = refuseMemberChange(change, { actor: actor.role, target, lastOwner });
    if (refusal) throw new DomainError('forbidden', refusal);
    return apply(tx);
  });
}

export interface InviteResult {
  member: { id: number; email: string; role: MemberRole };
  invite: IssuedInvite;
}

/**
 * Invites someone by e-mail: a pending member (no account yet) and a single-use link. The
 * link is e-mailed when a mail server is configured, and otherwise returned to be shown once.
 */
export async function inviteMember(
  db: PrismaClient,
  projectId: number,
  actor: Actor,
  input: z.input<typeof inviteMemberInput>,
): Promise<InviteResult> {
  const data = parseInput(inviteMemberInput, input);
  const member = await changeMember(
    db,
    projectId,
    actor,
    null,
    { kind: 'invite', role: data.role },
    async (tx) => {
      const existing = await tx.projectMember.findFirst({ where: { projectId, email: data.email } });
      if (existing) {
        throw new DomainError(
          'conflict',
          `${data.email} is already a member of this project${existing.userId ? '' : ' (invited, not joined yet)'}.`,
          'email',
        );
      }
      return tx.projectMember.create({
        data: { projectId, email: data.email, name: data.name, role: data.role },
        select: { id: true, email: true, role: true },
      });
    },
  );
  return { member, invite: await createInvite(db, projectId, member.id) };
}

/** A new link for a member who has not joined yet; earlier links stop working. */
export async function reinviteMember(db: PrismaClient, projectId: number, actor: Actor, memberId: number) {
  const member = await changeMember(db, projectId, actor, memberId, { kind: 'reinvite' }, (tx) =>
    tx.projectMember.findFirstOrThrow({
      where: { id: memberId },
      select: { id: true, email: true, role: true, userId: true },
    }),
  );
  if (member.userId) throw new DomainError('conflict', `${member.email} has already joined the project.`);
  const { userId: _, ...rest } = member;
  return { member: rest, invite: await createInvite(db, projectId, member.id) };
}

export async function changeMemberRole(
  db: PrismaClient,
  projectId: number,
  actor: Actor,
  memberId: number,
  role: MemberRole,
) {
  return changeMember(db, projectId, actor, memberId, { kind: 'role', role }, (tx) =>
    tx.projectMember.update({ where: { id: memberId }, data: { role }, select: { id: true, role: true } }),
  );
}

/** Inactive members keep their data but cannot open the project and get no round-robin assignments. */
export async function setMemberActive(
  db: PrismaClient,
  projectId: number,
  actor: Actor,
  memberId: number,
  active: boolean,
) {
  return changeMember(db, projectId, actor, memberId, { kind: 'active', active }, (tx) =>
    tx.projectMember.update({
      where: { id: memberId },
      data: { active },
      select: { id: true, active: true },
    }),
  );
}

/** Removes a member: their clients become unassigned, their pending invites stop working. */
export async function removeMember(db: PrismaClient, projectId: number, actor: Actor, memberId: number) {
  await changeMember(db, projectId, actor, memberId, { kind: 'remove' }, async (tx) => {
    await revokeInvites(tx, memberId);
    await tx.projectMember.delete({ where: { id: memberId } });
  });
}
