import { AuthForm } from '@/components/auth/auth-form';
import { getDb } from '@/server/db';
import { signUpPageState } from '@/server/instance/sign-up-gate';

export const metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

/** Its link to sign-up only where the sign-up page would show its form. */
export default async function SignInPage() {
  const signUp = await signUpPageState(await getDb());
  return <AuthForm mode="sign-in" offerSignUp={signUp === 'allowed'} />;
}
