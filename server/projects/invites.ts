import { createHash, randomBytes } from 'node:crypto';
import type { MemberRole } from '@/lib/team/member-rules';
import { baseUrl } from '@/server/config/env';
import type { Db, PrismaClient } from '@/server/db/client-type';
import { DomainError } from '@/server/errors';
import { mailConfigured, sendMail } from '@/server/mail/mailer';

/** How long an invite link works. */
export const INVITE_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export const inviteLink = (token: string) => `${baseUrl()}/invite/${token}`;

/** What the manager is told: the link when it was not e-mailed (shown once), and why not. */
export interface IssuedInvite {
  expiresAt: Date;
  mailed: boolean;
  link: string | null;
  mailError: string | null;
}

/** Stops a member's links from working (a newer link replaced them, or the member was removed). */
export async function revokeInvites(db: Db, memberId: number) {
  await db.projectInvite.updateMany({
    where: { memberId, usedAt: null, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}

/**
 * A new single-use link for a pending member, replacing their earlier ones; e-mailed when a mail
 * server is configured. A mail that fails does not lose the invite: the link is returned instead.
 */
export async function createInvite(
  db: PrismaClient,
  projectId: number,
  memberId: number,
): Promise<IssuedInvite> {
  const token = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + INVITE_DAYS * DAY_MS);
  const [, , project] = await db.$transaction([
    db.projectInvite.updateMany({
      where: { memberId, usedAt: null, revokedAt: null },
      data: { revokedAt: new Date() },
    }),
    db.projectInvite.create({ data: { projectId, memberId, tokenHash: hashToken(token), expiresAt } }),
    db.project.findUniqueOrThrow({
      where: { id: projectId },
      select: { name: true, members: { where: { id: memberId }, select: { email: true, role: true } } },
    }),
  ]);
  const link = inviteLink(token);
  if (!mailConfigured()) return { expiresAt, mailed: false, link, mailError: null };
  const [member] = project.members;
  try {
    await sendMail({
      to: member.email,
      subject: `You are invited to ${project.name} on Blockbot`,
      text: [
        `You are invited to join the project "${project.name}" on Blockbot as an ${member.role}.`,
        '',
        `Open this link to accept (it works once, until ${expiresAt.toUTCString()}):`,
        link,
        '',
        'If you did not expect this invitation, ignore this e-mail.',
      ].join('\n'),
    });
    return { expiresAt, mailed: true, link: null, mailError: null };
  } catch (error) {
    return {
      expiresAt,
      mailed: false,
      link,
      mailError: error instanceof Error ? error.message : String(error),
    };
  }
}

export type InviteState = 'valid' | 'used' | 'expired' | 'revoked' | 'unknown';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,100}$/;

async function findInvite(db: Db, token: string) {
  if (!TOKEN_SHAPE.test(token)) return null;
  return db.projectInvite.findUnique({
    where: { tokenHash: hashToken(token) },
    include: {
      project: { select: { id: true, name: true } },
      member: { select: { id: true, email: true, role: true, userId: true } },
    },
  });
}

function stateOf(invite: Awaited<ReturnType<typeof findInvite>>): InviteState {
  if (!invite) return 'unknown';
  if (invite.usedAt) return 'used';
  if (invite.revokedAt || !invite.member) return 'revoked';
  if (invite.member.userId) return 'used';
  if (invite.expiresAt.getTime() <= Date.now()) return 'expired';
  return 'valid';
}

export type InviteView =
  | { state: Exclude<InviteState, 'valid'> }
  | { state: 'valid'; projectName: string; email: string; role: MemberRole; hasAccount: boolean };

/** The invite page's view: the project and address it is for, only while the link works. */
export async function describeInvite(db: Db, token: string): Promise<InviteView> {
  const invite = await findInvite(db, token);
  const state = stateOf(invite);
  if (state !== 'valid') return { state };
  if (!invite?.member) return { state: 'revoked' };
  const account = await db.user.findFirst({
    where: { email: invite.member.email },
    select: { id: true },
  });
  return {
    state,
    projectName: invite.project.name,
    email: invite.member.email,
    role: invite.member.role,
    hasAccount: account !== null,
  };
}

/**
 * Whether an invite link lets this address create an account on an invite-only instance: the
 * link works and is for this address, so one link opens the door for one person only.
 */
export async function inviteAdmitsSignUp(db: Db, token: string, email: string): Promise<boolean> {
  const invite = await findInvite(db, token);
  return stateOf(invite) === 'valid' && invite?.member?.email === email.trim().toLowerCase();
}

const refusals: Record<Exclude<InviteState, 'valid'>, string> = {
  unknown: 'This invite link is not valid. Check that it was copied whole, or ask for a new one.',
  used: 'This invite link was already used. Sign in to open the project, or ask for a new link.',
  expired: `This invite link has expired (links work for ${INVITE_DAYS} days). Ask the project's owner or an admin for a new one.`,
  revoked: "This invite link was withdrawn. Ask the project's owner or an admin for a new one.",
};

export const inviteRefusal = (state: Exclude<InviteState, 'valid'>) => refusals[state];

/**
 * Joins the signed-in user to the project the link invites them to. The account's e-mail must
 * be the invited one: the link proves the address received it, and the member is that address.
 */
export async function acceptInvite(
  db: PrismaClient,
  token: string,
  user: { id: string; email: string; name: string },
) {
  return db.$transaction(async (tx) => {
    const invite = await findInvite(tx, token);
    const state = stateOf(invite);
    if (state !== 'valid' || !invite?.member)
      throw new DomainError('not_found', inviteRefusal(state as Exclude<InviteState, 'valid'>));
    if (invite.member.email !== user.email.toLowerCase()) {
      throw new DomainError(
        'forbidden',
        `This invite is for ${invite.member.email}, and you are signed in as ${user.email}. Sign out, then open the link again.`,
      );
    }
    // Single use even when two tabs accept at once: only one update finds the invite unused.
    const { count } = await tx.projectInvite.updateMany({
      where: { id: invite.id, usedAt: null, revokedAt: null },
      data: { usedAt: new Date() },
    });
    if (count === 0) throw new DomainError('not_found', inviteRefusal('used'));
    const member = await tx.projectMember.update({
      where: { id: invite.member.id },
      data: { userId: user.id },
      select: { name: true },
    });
    if (!member.name && user.name) {
      await tx.projectMember.update({ where: { id: invite.member.id }, data: { name: user.name } });
    }
    return { projectId: invite.project.id };
  });
}
