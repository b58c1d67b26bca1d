/**
 * Who may change whom in a project's team. Pure: the server reads the roles and the count of
 * owners, asks here, and refuses with the sentence returned.
 */
export type MemberRole = 'owner' | 'admin' | 'operator';

export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'operator'];

/** Owners and admins manage the project (settings, keys, channels, the bot, the team); operators answer chats. */
export const canManageProject = (role: MemberRole): boolean => role === 'owner' || role === 'admin';

/** Roles that only an owner may give or take away. */
const isPrivileged = (role: MemberRole) => role === 'owner' || role === 'admin';

export type MemberChange =
  | { kind: 'invite'; role: MemberRole }
  | { kind: 'role'; role: MemberRole }
  | { kind: 'active'; active: boolean }
  | { kind: 'remove' }
  /** A new invite link for a member who has not joined yet. */
  | { kind: 'reinvite' };

export interface ChangeContext {
  actor: MemberRole;
  /** The member changed, or null for an invite. */
  target: { role: MemberRole; email: string } | null;
  /** The target is the only owner who has joined and is active: the project must keep one. */
  lastOwner: boolean;
}

/** Why the change is refused, or null when it is allowed. */
export function refuseMemberChange(change: MemberChange, ctx: ChangeContext): string | null {
  const { actor, target } = ctx;
  if (!canManageProject(actor)) return "Only the project's owner or an admin can manage the team.";
  if (change.kind === 'invite') {
    if (isPrivileged(change.role) && actor !== 'owner')
      return `Only an owner can invite an ${change.role}; invite an operator, or ask an owner.`;
    return null;
  }
  if (!target) return 'That member does not exist.';
  if (isPrivileged(target.role) && actor !== 'owner') {
    return `Only an owner can change or remove an ${target.role} (${target.email}).`;
  }
  if (change.kind === 'role' && isPrivileged(change.role) && actor !== 'owner') {
    return `Only an owner can make someone an ${change.role}.`;
  }
  const losesOwnership =
    target.role === 'owner' &&
    (change.kind === 'remove' ||
      (change.kind === 'role' && change.role !== 'owner') ||
      (change.kind === 'active' && !change.active));
  if (losesOwnership && ctx.lastOwner) {
    return `${target.email} is the project's last owner: make another member an owner first.`;
  }
  return null;
}
