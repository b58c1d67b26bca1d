'use client';

import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/client';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { connectTgInput } from '@/lib/channels/connect-inputs';
import { ChannelHeader, type ChannelSectionProps } from '../channel-section';
import { ConnectForm, useConnectValues } from '../connect-form';

/**
 * tg bots on the Channels tab: connect one by its token (by webhook, or by long polling where
 * this server cannot be called), see what each receives, disconnect it.
 */
export function TgSection({
  projectId,
  canManage,
  channels,
  onChanged,
  removeButton,
  webhookProblem,
}: ChannelSectionProps) {
  const trpc = useTRPC();
  const tgForm = useConnectValues(connectTgInput);
  const connect = useMutation(
    trpc.channels.connect.mutationOptions({
      onSuccess: () => {
        tgForm.reset();
        return onChanged();
      },
    }),
  );
  return (
    <>
      {canManage ? (
        <Card>
          <CardTitle description="The token is checked with the messenger, stored encrypted and never shown again.">
            Connect a tg bot
          </CardTitle>
          <ConnectForm
            name="Connect a tg bot"
            idPrefix="tg"
            schema={connectTgInput}
            values={tgForm.values}
            setValues={tgForm.setValues}
            onSubmit={() => connect.mutate({ projectId, kind: 'tg', ...tgForm.input })}
            pending={connect.isPending}
            error={connect.error}
            submitLabel="Connect"
          >
            {webhookProblem && tgForm.values.mode === 'webhook' ? (
              <div
                className="space-y-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
                data-testid="tg-webhook-hint"
              >
                <p>{webhookProblem}</p>
                <Button
                  type="button"
                  variant="secondary"
                  size="sm"
                  onClick={() => tgForm.setValues((v) => ({ ...v, mode: 'polling' }))}
                >
                  Use long polling
                </Button>
              </div>
            ) : null}
          </ConnectForm>
        </Card>
      ) : null}
      <Card>
        <CardTitle>Connected bots</CardTitle>
        {channels?.length === 0 ? (
          <div className="space-y-1 text-sm text-slate-600" data-testid="channels-empty">
            <p>No tg bot is connected.</p>
            <p>
              To get a token, open BotFather in the tg messenger, send <code>/newbot</code>, choose a name and
              a username ending in “bot”, and paste the token it answers with
              {canManage ? ' above' : ' (an owner or admin of the project connects it)'}.
            </p>
          </div>
        ) : null}
        <ul className="divide-y divide-slate-100">
          {channels?.map((channel) => (
            <li key={channel.id} className="space-y-1 py-3 text-sm" data-testid="channel-row">
              <ChannelHeader
                channel={channel}
                title={`@${channel.groupId}`}
                badges={[channel.receiveMode === 'polling' ? 'long polling' : 'webhook']}
                remove={removeButton(
                  'Disconnect',
                  `Disconnect @${channel.groupId}? The bot stops answering its clients; their history stays.`,
                  channel.id,
                )}
              />
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
