'use client';

import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/client';
import { Card, CardTitle } from '@/components/ui/card';
import { connectSocialInput } from '@/lib/channels/connect-inputs';
import { resultOf } from '@/lib/channels/operation-result';
import type { connectSocialChannel } from '@/server/channels/social/channel-service';
import { ConnectForm, useConnectValues } from '../connect-form';
import { Copyable } from '../copyable';

/** Connects an Instagram professional account (docs/channels/instagram.md); then where Meta must call. */
export function SocialConnectCard({
  projectId,
  onConnected,
}: {
  projectId: number;
  onConnected: () => unknown;
}) {
  const trpc = useTRPC();
  const form = useConnectValues(connectSocialInput);
  const connect = useMutation(
    trpc.channels.connect.mutationOptions({
      onSuccess: () => {
        form.reset();
        return onConnected();
      },
    }),
  );
  const connected = resultOf<typeof connectSocialChannel>(connect.data);
  return (
    <Card>
      <CardTitle description="Instagram Direct through Meta’s Graph API. The token and the app secret are checked, stored encrypted and never shown again.">
        Connect an Instagram account
      </CardTitle>
      <ConnectForm
        name="Connect an Instagram account"
        idPrefix="social"
        schema={connectSocialInput}
        values={form.values}
        setValues={form.setValues}
        onSubmit={() => connect.mutate({ projectId, kind: 'social', ...form.input })}
        pending={connect.isPending}
        error={connect.error}
        submitLabel="Connect the account"
      />
      {connected ? (
        <div
          className="mt-4 space-y-2 rounded-md bg-emerald-50 p-3 text-sm"
          data-testid="social-webhook-setup"
        >
          <p className="font-medium text-emerald-900">
            @{connected.groupId} is connected. Last step: in your Meta app, Instagram → Webhooks, paste these
            two values, verify, and subscribe to <code>messages</code>, <code>messaging_postbacks</code>,{' '}
            <code>messaging_seen</code> and <code>comments</code>.
          </p>
          <Copyable label="Callback URL" value={connected.webhook.url} testId="social-callback-url" />
          <Copyable
            label="Verify token (shown only now)"
            value={connected.webhook.verifyToken}
            testId="social-verify-token"
          />
        </div>
      ) : null}
    </Card>
  );
}

/** A connected account's ids and the webhook address Meta calls. */
export function SocialAccount({ social }: { social: { accountId: string; webhookUrl: string } }) {
  return (
    <div className="space-y-1 text-slate-600">
      <p>Instagram account ID: {social.accountId}</p>
      <Copyable label="Callback URL" value={social.webhookUrl} testId="social-row-callback-url" />
    </div>
  );
}
