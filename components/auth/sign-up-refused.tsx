import Link from 'next/link';
import { Card } from '@/components/ui/card';
import { SIGN_UP_REFUSALS, type SignUpVerdict } from '@/lib/instance/sign-up';

/** The sign-up page of an instance that is closed, or invite-only for someone without a link. */
export function SignUpRefused({
  reason,
  signInHref = '/sign-in',
}: {
  reason: Exclude<SignUpVerdict, 'allowed'>;
  /** From an invite link, signing in still joins its project. */
  signInHref?: string;
}) {
  return (
    <main className="flex min-h-full items-center justify-center p-6">
      <Card className="w-full max-w-sm">
        <h1 className="mb-3 text-xl font-semibold">
          {reason === 'closed' ? 'Sign-up is closed' : 'Sign-up is by invitation'}
        </h1>
        <p className="text-sm text-slate-600" data-testid="sign-up-refused">
          {SIGN_UP_REFUSALS[reason]}
        </p>
        <p className="mt-4 text-center text-sm text-slate-600">
          Have an account?{' '}
          <Link className="text-brand-600 hover:underline" href={signInHref}>
            Sign in
          </Link>
        </p>
      </Card>
    </main>
  );
}
