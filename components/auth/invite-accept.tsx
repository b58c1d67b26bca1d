'use client';

import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import type { InviteContext } from './auth-form';
import { SignOutButton } from './sign-out-button';

const problemTitles = {
  used: 'This invite was already used',
  expired: 'This invite has expired',
  revoked: 'This invite was withdrawn',
  unknown: 'This invite link is not valid',
} as const;

/** A link that no longer works: why, and where to go instead. */
export function InviteProblem({ state, message }: { state: keyof typeof problemTitles; message: string }) {
  return (
    <main className="flex min-h-full items-center justify-center p-6">
      <Card className="w-full max-w-sm" data-testid="invite-problem">
        <h1 className="mb-3 text-xl font-semibold">{problemTitles[state]}</h1>
        <p className="text-sm text-slate-600">{message}</p>
        <p className="mt-4 text-sm">
          <Link className="text-brand-600 hover:underline" href="/sign-in">
            Go to sign in
          </Link>
        </p>
      </Card>
    </main>
  );
}

/** Signed in already: join with one click, if the account is the invited address. */
export function InviteAccept({ invite, signedInAs }: { invite: InviteContext; signedInAs: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const accept = useMutation(
    trpc.team.acceptInvite.mutationOptions({
      onSuccess: ({ projectId }) => {
        router.push(`/projects/${projectId}`);
        router.refresh();
      },
    }),
  );
  const sameAccount = signedInAs.toLowerCase() === invite.email;
  return (
    <main className="flex min-h-full items-center justify-center p-6">
      <Card className="w-full max-w-sm">
        <h1 className="mb-3 text-xl font-semibold">Join {invite.projectName}</h1>
        {sameAccount ? (
          <>
            <p className="mb-4 text-sm text-slate-600">
              You are invited as an {invite.role}, and signed in as {signedInAs}.
            </p>
            {accept.error ? (
              <div className="mb-3">
                <Alert tone="error">{accept.error.message}</Alert>
              </div>
            ) : null}
            <Button
              className="w-full"
              disabled={accept.isPending}
              onClick={() => accept.mutate({ token: invite.token })}
            >
              Join the project
            </Button>
          </>
        ) : (
          <>
            <p className="mb-4 text-sm text-slate-600">
              This invite is for {invite.email}, and you are signed in as {signedInAs}. Sign out, then open
              the link again to sign in or sign up with {invite.email}.
            </p>
            <SignOutButton />
          </>
        )}
      </Card>
    </main>
  );
}
