'use client';

import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState, useSyncExternalStore } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { INVITE_TOKEN_HEADER } from '@/lib/instance/sign-up';
import { authClient } from './auth-client';
import { authErrorMessage } from './auth-errors';

const noChanges = () => () => {};

/** An invite link being accepted: the form is for its address, and joins its project after. */
export interface InviteContext {
  token: string;
  email: string;
  projectName: string;
  role: string;
}

/**
 * Sign-in and sign-up share one form; sign-up also asks for a name and opens the first project.
 * From an invite link, it signs in or up with the invited address and joins that project instead.
 */
export function AuthForm({
  mode,
  invite,
  offerSignUp = true,
}: {
  mode: 'sign-in' | 'sign-up';
  invite?: InviteContext;
  /** Sign-in's link to sign-up; left out where this instance takes no sign-ups from there. */
  offerSignUp?: boolean;
}) {
  // Until React has taken over the page, a submit would be the browser's own: a GET that puts
  // the password in the address. So the button waits for hydration.
  const hydrated = useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
  const router = useRouter();
  const trpc = useTRPC();
  const ensureFirst = useMutation(trpc.project.ensureFirst.mutationOptions());
  const acceptInvite = useMutation(trpc.team.acceptInvite.mutationOptions());
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '');
    const password = String(form.get('password') ?? '');
    setPending(true);
    setError(null);
    const result =
      mode === 'sign-up'
        ? await authClient.signUp.email({
            email,
            password,
            name: String(form.get('name') ?? ''),
            // An invite-only instance lets the invited address in with its link (server/auth/auth.ts).
            fetchOptions: invite ? { headers: { [INVITE_TOKEN_HEADER]: invite.token } } : undefined,
          })
        : await authClient.signIn.email({ email, password });
    if (result.error) {
      setPending(false);
      setError(authErrorMessage(result.error));
      return;
    }
    if (invite) {
      try {
        const { projectId } = await acceptInvite.mutateAsync({ token: invite.token });
        router.push(`/projects/${projectId}`);
      } catch (e) {
        setPending(false);
        setError(e instanceof Error ? e.message : 'The invite could not be accepted.');
        return;
      }
    } else if (mode === 'sign-up') {
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
      const project = await ensureFirst.mutateAsync({ timeZone });
      router.push(`/projects/${project.id}`);
    } else {
      router.push('/projects');
    }
    router.refresh();
  }

  const title = invite
    ? `Join ${invite.projectName}`
    : mode === 'sign-up'
      ? 'Create your Blockbot account'
      : 'Sign in to Blockbot';
  const switchHref = (to: 'sign-in' | 'sign-up') => (invite ? `/invite/${invite.token}?as=${to}` : `/${to}`);
  return (
    <main className="flex min-h-full items-center justify-center p-6">
      <Card className="w-full max-w-sm">
        <h1 className="mb-5 text-xl font-semibold">{title}</h1>
        {invite ? (
          <p className="-mt-3 mb-4 text-sm text-slate-600">
            You are invited as an {invite.role}. {mode === 'sign-up' ? 'Create your account' : 'Sign in'} with{' '}
            {invite.email} to join.
          </p>
        ) : null}
        <form className="space-y-4" onSubmit={onSubmit} noValidate>
          {mode === 'sign-up' ? (
            <Field id="name" label="Name">
              <Input id="name" name="name" autoComplete="name" required />
            </Field>
          ) : null}
          <Field id="email" label="E-mail">
            <Input
              id="email"
              name="email"
              type="email"
              autoComplete="email"
              required
              defaultValue={invite?.email}
              readOnly={invite !== undefined}
            />
          </Field>
          <Field
            id="password"
            label="Password"
            hint={mode === 'sign-up' ? 'At least 8 characters.' : undefined}
          >
            <Input
              id="password"
              name="password"
              type="password"
              autoComplete={mode === 'sign-up' ? 'new-password' : 'current-password'}
              required
            />
          </Field>
          {error ? <Alert tone="error">{error}</Alert> : null}
          <Button type="submit" className="w-full" disabled={pending || !hydrated}>
            {mode === 'sign-up' ? 'Sign up' : 'Sign in'}
          </Button>
        </form>
        <p className="mt-4 text-center text-sm text-slate-600">
          {mode === 'sign-up' ? (
            <>
              Have an account?{' '}
              <Link className="text-brand-600 hover:underline" href={switchHref('sign-in')}>
                Sign in
              </Link>
            </>
          ) : offerSignUp ? (
            <>
              New here?{' '}
              <Link className="text-brand-600 hover:underline" href={switchHref('sign-up')}>
                Create an account
              </Link>
            </>
          ) : (
            'No account? Ask the administrator of this instance, or a project owner for an invite.'
          )}
        </p>
      </Card>
    </main>
  );
}
