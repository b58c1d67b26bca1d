import { headers } from 'next/headers';
import { AuthForm } from '@/components/auth/auth-form';
import { InviteAccept, InviteProblem } from '@/components/auth/invite-accept';
import { SignUpRefused } from '@/components/auth/sign-up-refused';
import { getSessionFromHeaders } from '@/server/auth/auth';
import { getDb } from '@/server/db';
import { signUpVerdictFor } from '@/server/instance/sign-up-gate';
import { describeInvite, inviteRefusal } from '@/server/projects/invites';

export const metadata = { title: 'Invitation' };
export const dynamic = 'force-dynamic';

/**
 * An invite link: sign up (or sign in, with an account for the invited address) and join the
 * project; signed in already, one click. A used, expired or withdrawn link says so.
 */
export default async function InvitePage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ as?: string }>;
}) {
  const { token } = await params;
  const [invite, session] = await Promise.all([
    getDb().then((db) => describeInvite(db, token)),
    getSessionFromHeaders(await headers()),
  ]);
  if (invite.state !== 'valid')
    return <InviteProblem state={invite.state} message={inviteRefusal(invite.state)} />;
  const context = { token, email: invite.email, projectName: invite.projectName, role: invite.role };
  if (session) return <InviteAccept invite={context} signedInAs={session.user.email} />;
  const as = (await searchParams).as;
  const mode = as === 'sign-in' || as === 'sign-up' ? as : invite.hasAccount ? 'sign-in' : 'sign-up';
  if (mode === 'sign-up') {
    // A closed instance takes no accounts even from a link: say so before anyone types.
    const verdict = await signUpVerdictFor(await getDb(), { email: invite.email, inviteToken: token });
    if (verdict !== 'allowed')
      return <SignUpRefused reason={verdict} signInHref={`/invite/${token}?as=sign-in`} />;
  }
  return <AuthForm mode={mode} invite={context} />;
}
