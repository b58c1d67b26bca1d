import { AuthForm } from '@/components/auth/auth-form';
import { SignUpRefused } from '@/components/auth/sign-up-refused';
import { getDb } from '@/server/db';
import { signUpPageState } from '@/server/instance/sign-up-gate';

export const metadata = { title: 'Sign up' };
export const dynamic = 'force-dynamic';

/** The form, or, when this instance takes no new accounts from here, why not (before anyone types). */
export default async function SignUpPage() {
  const state = await signUpPageState(await getDb());
  if (state !== 'allowed') return <SignUpRefused reason={state} />;
  return <AuthForm mode="sign-up" />;
}
