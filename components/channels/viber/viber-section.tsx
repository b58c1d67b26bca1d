'use client';

import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/client';
import { Card, CardTitle } from '@/components/ui/card';
import { CLIENT_TYPES } from '@/lib/channels/descriptors';
import { resultOf } from '@/lib/channels/operation-result';
import { messengerLabel } from '@/lib/client-display';
import { connectViberInput } from '@/lib/viber/connect-input';
import type { connectViberChannel } from '@/server/channels/viber/channel-service';
import { ChannelHeader, type ChannelSectionProps } from '../channel-section';
import { ConnectForm, useConnectValues } from '../connect-form';
import { Copyable } from '../copyable';

/** Connects a Viber bot by its token (docs/channels/viber.md); the webhook is set by the server. */
function ViberConnectCard({
  projectId,
  onConnected,
  webhookProblem,
}: {
  projectId: number;
  onConnected: () => unknown;
  webhookProblem: string | null;
}) {
  const trpc = useTRPC();
  const form = useConnectValues(connectViberInput);
  const connect = useMutation(
    trpc.channels.connect.mutationOptions({
      onSuccess: () => {
        form.reset();
        return onConnected();
      },
    }),
  );
  const connected = resultOf<typeof connectViberChannel>(connect.data);
  return (
    <Card>
      <CardTitle description="A Viber bot on Viber’s REST Bot API. The token is checked with Viber, stored encrypted and never shown again; the bot’s webhook is set to this server.">
        Connect a Viber bot
      </CardTitle>
      {webhookProblem ? (
        <p className="mb-2 text-sm text-amber-800" data-testid="viber-webhook-problem">
          {webhookProblem}
        </p>
      ) : null}
      <ConnectForm
        name="Connect a Viber bot"
        idPrefix="viber"
        schema={connectViberInput}
        values={form.values}
        setValues={form.setValues}
        onSubmit={() => connect.mutate({ projectId, kind: 'viber', ...form.input })}
        pending={connect.isPending}
        error={connect.error}
        submitLabel="Connect the bot"
      />
      {connected ? (
        <p
          className="mt-4 rounded-md bg-emerald-50 p-3 text-sm text-emerald-900"
          data-testid="viber-connected"
        >
          {connected.name} is connected: people who write to it now talk to your bot.
        </p>
      ) : null}
    </Card>
  );
}

/** Viber bots on the Channels tab. */
export function ViberSection({
  projectId,
  canManage,
  channels,
  onChanged,
  removeButton,
  webhookProblem,
}: ChannelSectionProps) {
  const bots = channels?.flatMap((c) => (c.viber ? [{ ...c, viber: c.viber }] : []));
  return (
    <>
      {canManage ? (
        <ViberConnectCard projectId={projectId} onConnected={onChanged} webhookProblem={webhookProblem} />
      ) : null}
      <Card>
        <CardTitle>Viber bots</CardTitle>
        {bots?.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="viber-empty">
            No Viber bot is connected.
            {canManage ? '' : ' An owner or admin of the project connects one.'}
          </p>
        ) : null}
        <ul className="divide-y divide-slate-100">
          {bots?.map((channel) => (
            <li key={channel.id} className="space-y-2 py-3 text-sm" data-testid="viber-row">
              <ChannelHeader
                channel={channel}
                title={channel.groupId}
                badges={[messengerLabel(CLIENT_TYPES.viber)]}
                remove={removeButton(
                  'Disconnect',
                  `Disconnect the Viber bot ${channel.groupId}? Its webhook is removed and the bot stops answering its clients; their history stays.`,
                  channel.id,
                )}
              />
              <div className="space-y-1 text-slate-600">
                <p>Viber account ID: {channel.viber.accountId}</p>
                <Copyable label="Webhook" value={channel.viber.webhookUrl} testId="viber-row-webhook" />
              </div>
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
