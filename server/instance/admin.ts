import type { SignUpMode } from '@/lib/instance/sign-up';
import type { Db, PrismaClient } from '@/server/db/client-type';
import { DomainError } from '@/server/errors';
import { signUpPolicy, storeSignUpMode } from './settings';

/** Rows per page of the instance page's lists. */
export const INSTANCE_PAGE_SIZE = 50;

export async function isInstanceAdmin(db: Db, userId: string): Promise<boolean> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { instanceRole: true, disabledAt: true },
  });
  return user?.instanceRole === 'admin' && user.disabledAt === null;
}

/** Accounts, oldest first, a page at a time (the cursor is the last row's id). */
export async function listInstanceUsers(db: Db, cursor: string | undefined) {
  const rows = await db.user.findMany({
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: INSTANCE_PAGE_SIZE + 1,
    ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    select: {
      id: true,
      email: true,
      name: true,
      createdAt: true,
      instanceRole: true,
      disabledAt: true,
      _count: { select: { memberships: { where: { active: true } } } },
    },
  });
  const page = rows.slice(0, INSTANCE_PAGE_SIZE);
  return {
    users: page.map(({ _count, instanceRole, ...user }) => ({
      ...user,
      admin: instanceRole === 'admin',
      projects: _count.memberships,
    })),
    nextCursor: rows.length > INSTANCE_PAGE_SIZE ? page[page.length - 1].id : null,
  };
}

/** Projects, newest first, a page at a time (the cursor is the last row's id). */
export async function listInstanceProjects(db: Db, cursor: number | undefined) {
  const rows = await db.project.findMany({
    orderBy: { id: 'desc' },
    take: INSTANCE_PAGE_SIZE + 1,
    ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    select: {
      id: true,
      name: true,
      createdAt: true,
      members: { where: { role: 'owner' }, select: { email: true }, take: 1 },
      _count: { select: { members: { where: { active: true } } } },
    },
  });
  const page = rows.slice(0, INSTANCE_PAGE_SIZE);
  return {
    projects: page.map(({ members, _count, ...project }) => ({
      ...project,
      owner: members[0]?.email ?? null,
      members: _count.members,
    })),
    nextCursor: rows.length > INSTANCE_PAGE_SIZE ? page[page.length - 1].id : null,
  };
}

/**
 * Changes an account's access as an admin: disabling ends its sessions in the same transaction,
 * so it is signed out at once. Never the admin's own account, and never the last active admin;
 * serializable, so two admins disabling each other at once cannot both succeed.
 */
async function changeAccount(
  db: PrismaClient,
  actorId: string,
  userId: string,
  change: { disabledAt: Date | null } | { instanceRole: 'admin' | 'user' },
  refusal: string,
) {
  if (userId === actorId) throw new DomainError('forbidden', refusal);
  await db.$transaction(
    async (tx) => {
      const target = await tx.user.findUnique({ where: { id: userId }, select: { id: true } });
      if (!target) throw new DomainError('not_found', 'There is no such account.');
      await tx.user.update({ where: { id: userId }, data: change });
      if ('disabledAt' in change && change.disabledAt) await tx.session.deleteMany({ where: { userId } });
      const admins = await tx.user.count({ where: { instanceRole: 'admin', disabledAt: null } });
      if (admins === 0)
        throw new DomainError('conflict', 'The instance needs at least one active admin; keep this one.');
    },
    { isolationLevel: 'Serializable' },
  );
}

export const setUserDisabled = (db: PrismaClient, actorId: string, userId: string, disabled: boolean) =>
  changeAccount(
    db,
    actorId,
    userId,
    { disabledAt: disabled ? new Date() : null },
    'You cannot disable your own account.',
  );

export const setUserAdmin = (db: PrismaClient, actorId: string, userId: string, admin: boolean) =>
  changeAccount(
    db,
    actorId,
    userId,
    { instanceRole: admin ? 'admin' : 'user' },
    'You cannot change your own role; another admin can.',
  );

/** The way back in when no admin can sign in (the CLI's `instance-admin`): an enabled admin. */
export async function restoreAdmin(db: Db, email: string) {
  const user = await db.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    select: { id: true },
  });
  if (!user) throw new DomainError('not_found', `No account has the e-mail ${email}.`);
  return db.user.update({
    where: { id: user.id },
    data: { instanceRole: 'admin', disabledAt: null },
    select: { email: true },
  });
}

/** The admin's sign-up choice; refused while BLOCKBOT_SIGNUP fixes it. */
export async function setSignUpMode(db: Db, mode: SignUpMode) {
  const policy = await signUpPolicy(db);
  if (policy.source === 'env')
    throw new DomainError(
      'conflict',
      `BLOCKBOT_SIGNUP=${policy.mode} is set in the server's environment; change or remove it there and restart.`,
    );
  await storeSignUpMode(db, mode);
  return signUpPolicy(db);
}
