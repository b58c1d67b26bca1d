'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Card, CardTitle } from '@/components/ui/card';
import { SIGN_UP_MODES, type SignUpMode } from '@/lib/instance/sign-up';

const MODE_TEXT: Record<SignUpMode, { label: string; hint: string }> = {
  open: { label: 'Open', hint: 'Anyone who can reach this server can create an account.' },
  'invite-only': {
    label: 'Invite only',
    hint: 'Only people invited to a project can create an account, through their invite link and for the invited address.',
  },
  closed: { label: 'Closed', hint: 'Nobody can create an account. Existing accounts still sign in.' },
};

/** Who may sign up: the three modes, locked while BLOCKBOT_SIGNUP sets one. */
export function SignUpSetting() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const policy = useQuery(trpc.instance.signUp.queryOptions());
  // The choice shows as it is clicked (a controlled radio would snap back until the answer);
  // a refused change falls back to the stored one.
  const [choice, setChoice] = useState<SignUpMode | null>(null);
  const change = useMutation(
    trpc.instance.setSignUp.mutationOptions({
      onSuccess: (next) => queryClient.setQueryData(trpc.instance.signUp.queryKey(), next),
      onError: () => setChoice(null),
    }),
  );
  const locked = policy.data?.source === 'env';
  const shown = choice ?? policy.data?.mode;
  return (
    <Card>
      <CardTitle description="Who may create an account on this instance. The first account is always allowed: it is the admin.">
        Who may sign up
      </CardTitle>
      {policy.error ? <Alert tone="error">{policy.error.message}</Alert> : null}
      {policy.data ? (
        <fieldset className="space-y-2" disabled={locked}>
          <legend className="sr-only">Sign-up</legend>
          {SIGN_UP_MODES.map((mode) => (
            <label key={mode} className="flex items-start gap-2.5 text-sm">
              <input
                type="radio"
                name="sign-up"
                className="mt-1"
                value={mode}
                checked={shown === mode}
                onChange={() => {
                  setChoice(mode);
                  change.mutate({ mode });
                }}
              />
              <span>
                <span className="font-medium text-slate-900">{MODE_TEXT[mode].label}</span>
                <span className="block text-slate-500">{MODE_TEXT[mode].hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
      ) : null}
      {locked ? (
        <p className="mt-3 text-sm text-slate-600">
          Set by <code>BLOCKBOT_SIGNUP</code> in the server's environment: change or remove it there and
          restart to choose here.
        </p>
      ) : policy.data?.source === 'default' ? (
        <p className="mt-3 text-xs text-slate-500">This instance's default; nothing chosen yet.</p>
      ) : null}
      {change.error ? (
        <div className="mt-3">
          <Alert tone="error">{change.error.message}</Alert>
        </div>
      ) : null}
    </Card>
  );
}
