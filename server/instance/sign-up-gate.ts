import { type SignUpVerdict, signUpVerdict } from '@/lib/instance/sign-up';
import type { Db } from '@/server/db/client-type';
import { inviteAdmitsSignUp } from '@/server/projects/invites';
import { signUpPolicy } from './settings';

/**
 * Whether an account may be created for this address now, with the invite token the request
 * carries. `otherThan`: the account just created for it, which does not count as one already there.
 */
export async function signUpVerdictFor(
  db: Db,
  request: { email: string; inviteToken: string | null; otherThan?: string },
): Promise<SignUpVerdict> {
  const [policy, anyUser] = await Promise.all([
    signUpPolicy(db),
    db.user.findFirst({
      where: request.otherThan ? { id: { not: request.otherThan } } : {},
      select: { id: true },
    }),
  ]);
  const invited =
    policy.mode === 'invite-only' && request.inviteToken !== null
      ? await inviteAdmitsSignUp(db, request.inviteToken, request.email)
      : false;
  return signUpVerdict({ mode: policy.mode, hasUsers: anyUser !== null, invited });
}

/** What the sign-up page shows before anyone types: the form, or why there is none. */
export async function signUpPageState(db: Db): Promise<SignUpVerdict> {
  return signUpVerdictFor(db, { email: '', inviteToken: null });
}

/** Whether this account was disabled by an admin (it may then start no session). */
export async function isDisabled(db: Db, userId: string): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { disabledAt: true } });
  return user?.disabledAt != null;
}
