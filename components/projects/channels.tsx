'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { channelReach } from '@/lib/channel-reach';
import { connectTgInput } from '@/lib/channels/connect-inputs';
import { ChatappConnectCard, ChatappGatewaySession, ChatappNumber } from './chatapp-channel';
import { ConnectForm, useConnectValues } from './connect-form';
import { SocialAccount, SocialConnectCard } from './social-channel';
import { TelephonyCard } from './telephony-channel';
import { WidgetChannel } from './widget-channel';

const dateTime = (d: Date | string | null) => (d ? new Date(d).toLocaleString() : 'never');

/**
 * What every connected channel's row starts with, whatever its kind: what it is, its badges,
 * its removal, when it last heard from the messenger, and its last error.
 */
function ChannelHeader({
  channel,
  title,
  badges,
  remove,
  showLastUpdate = true,
}: {
  channel: { name: string; receiving: boolean; lastUpdateAt: Date | string | null; lastError: string | null };
  title: string;
  badges: string[];
  remove: ReactNode;
  showLastUpdate?: boolean;
}) {
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <span className="whitespace-nowrap font-medium">{title}</span>
        {channel.name ? <span className="text-slate-500">{channel.name}</span> : null}
        {badges.map((badge) => (
          <Badge key={badge}>{badge}</Badge>
        ))}
        {showLastUpdate && !channel.receiving ? (
          <Badge className="bg-red-100 text-red-800">stopped</Badge>
        ) : null}
        {remove}
      </div>
      {showLastUpdate ? (
        <p className="text-slate-500" data-testid="channel-last-update">
          Last update received: {dateTime(channel.lastUpdateAt)}
        </p>
      ) : null}
      {channel.lastError ? (
        <p className="text-red-700" data-testid="channel-error">
          {channel.lastError}
        </p>
      ) : null}
    </>
  );
}

/**
 * The project's channels: connect a tg bot by token, see what it receives, disconnect it; create
 * chat widgets for websites, set their look and allowed sites, copy their snippet.
 * `webhookProblem`: why the messenger cannot call this server's webhooks (the server checks its
 * BLOCKBOT_BASE_URL), shown where a bot is connected with the suggestion of long polling.
 */
export function Channels({
  projectId,
  webhookProblem,
}: {
  projectId: number;
  webhookProblem: string | null;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const project = useQuery(trpc.project.get.queryOptions({ projectId }));
  // Last update and last error change as messages arrive.
  const channels = useQuery({ ...trpc.channels.list.queryOptions({ projectId }), refetchInterval: 3000 });
  const invalidate = () =>
    queryClient.invalidateQueries({ queryKey: trpc.channels.list.queryKey({ projectId }) });
  const tgForm = useConnectValues(connectTgInput);
  const connect = useMutation(
    trpc.channels.connectTg.mutationOptions({
      onSuccess: () => {
        tgForm.reset();
        return invalidate();
      },
    }),
  );
  const disconnect = useMutation(trpc.channels.disconnect.mutationOptions({ onSuccess: invalidate }));
  const createWidget = useMutation(trpc.channels.createWidget.mutationOptions({ onSuccess: invalidate }));
  const bots = channels.data?.filter((c) => c.kind === 'tg');
  const numbers = channels.data?.flatMap((c) => (c.chatapp ? [{ ...c, chatapp: c.chatapp }] : []));
  const telephony = channels.data?.flatMap((c) => (c.telephony ? [{ ...c, telephony: c.telephony }] : []));
  const widgets = channels.data?.flatMap((c) => (c.widget ? [{ ...c, widget: c.widget }] : []));
  const accounts = channels.data?.flatMap((c) => (c.social ? [{ ...c, social: c.social }] : []));
  const canManage = project.data ? project.data.role !== 'operator' : false;
  const reach = channels.data ? channelReach(channels.data) : null;

  /** Disconnects a channel (or deletes a widget) once the manager confirms `question`. */
  const removeButton = (label: string, question: string, channelId: number) =>
    canManage ? (
      <Button
        className="ml-auto"
        variant="secondary"
        size="sm"
        disabled={disconnect.isPending}
        onClick={() => {
          if (confirm(question)) disconnect.mutate({ projectId, channelId });
        }}
      >
        {label}
      </Button>
    ) : null;

  if (channels.error)
    return (
      <div className="p-6">
        <Alert tone="error">{channels.error.message}</Alert>
      </div>
    );

  return (
    <main className="mx-auto max-w-3xl space-y-6 p-6">
      {reach ? (
        <p
          className={
            reach.live ? 'text-sm text-slate-600' : 'rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900'
          }
          data-testid="channels-reach"
        >
          {reach.text}
        </p>
      ) : null}
      {/* Whichever kind was disconnected, what went wrong shows here. */}
      {disconnect.error ? <Alert tone="error">{disconnect.error.message}</Alert> : null}
      {disconnect.data?.warning ? <Alert tone="info">{disconnect.data.warning}</Alert> : null}
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
            onSubmit={() => connect.mutate({ projectId, ...tgForm.input })}
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
        {bots?.length === 0 ? (
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
          {bots?.map((channel) => (
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
      {canManage ? <ChatappConnectCard projectId={projectId} onConnected={invalidate} /> : null}
      <Card>
        <CardTitle>Chat-app numbers</CardTitle>
        {numbers?.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="chatapp-empty">
            No chat-app number is connected.
            {canManage ? '' : ' An owner or admin of the project connects one.'}
          </p>
        ) : null}
        <ul className="divide-y divide-slate-100">
          {numbers?.map((channel) => (
            <li key={channel.id} className="space-y-2 py-3 text-sm" data-testid="chatapp-row">
              <ChannelHeader
                channel={channel}
                title={channel.groupId ? `+${channel.groupId}` : 'Not paired yet'}
                badges={[channel.chatapp.provider === 'gateway' ? 'Session gateway' : 'Cloud API']}
                remove={removeButton(
                  'Disconnect',
                  `Disconnect ${channel.groupId ? `+${channel.groupId}` : 'this session, not paired yet'}? The bot stops answering its clients; their history stays.`,
                  channel.id,
                )}
                showLastUpdate={Boolean(channel.groupId)}
              />
              {channel.chatapp.provider === 'gateway' ? (
                <ChatappGatewaySession
                  projectId={projectId}
                  channelId={channel.id}
                  gateway={channel.chatapp}
                  canManage={canManage}
                  onChanged={invalidate}
                />
              ) : (
                <ChatappNumber
                  projectId={projectId}
                  channelId={channel.id}
                  chatapp={channel.chatapp}
                  canManage={canManage}
                  onSaved={invalidate}
                />
              )}
            </li>
          ))}
        </ul>
      </Card>
      {canManage ? <SocialConnectCard projectId={projectId} onConnected={invalidate} /> : null}
      <Card>
        <CardTitle>Instagram accounts</CardTitle>
        {accounts?.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="social-empty">
            No Instagram account is connected.
            {canManage ? '' : ' An owner or admin of the project connects one.'}
          </p>
        ) : null}
        <ul className="divide-y divide-slate-100">
          {accounts?.map((channel) => (
            <li key={channel.id} className="space-y-2 py-3 text-sm" data-testid="social-row">
              <ChannelHeader
                channel={channel}
                title={`@${channel.groupId}`}
                badges={['Instagram Direct']}
                remove={removeButton(
                  'Disconnect',
                  `Disconnect @${channel.groupId}? The bot stops answering its clients; their history stays.`,
                  channel.id,
                )}
              />
              <SocialAccount social={channel.social} />
            </li>
          ))}
        </ul>
      </Card>
      <TelephonyCard
        projectId={projectId}
        canManage={canManage}
        channels={telephony}
        onChanged={invalidate}
        header={(channel) => (
          <ChannelHeader
            channel={channel}
            title={`+${channel.groupId}`}
            badges={['jambonz']}
            remove={removeButton(
              'Disconnect',
              `Disconnect +${channel.groupId}? Its calls are no longer answered; the callers' history stays.`,
              channel.id,
            )}
          />
        )}
      />
      <Card>
        <CardTitle description="A chat bubble on your website: visitors talk to the bot, operators see them like any client.">
          Chat widget
        </CardTitle>
        {widgets?.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="widgets-empty">
            No chat widget yet.
          </p>
        ) : null}
        {createWidget.error ? <Alert tone="error">{createWidget.error.message}</Alert> : null}
        <ul className="divide-y divide-slate-100">
          {widgets?.map((channel) => (
            <li key={channel.id} className="space-y-3 py-3 text-sm" data-testid="widget-row">
              <ChannelHeader
                channel={{ ...channel, name: '' }}
                title={channel.name}
                badges={['chat widget']}
                remove={removeButton(
                  'Delete',
                  `Delete the chat widget “${channel.name}”? It disappears from the sites that use it; its dialogs stay in the history.`,
                  channel.id,
                )}
                showLastUpdate={false}
              />
              <WidgetChannel
                projectId={projectId}
                channelId={channel.id}
                widget={channel.widget}
                canManage={canManage}
                onSaved={invalidate}
              />
            </li>
          ))}
        </ul>
        {canManage ? (
          <Button
            variant={widgets?.length ? 'secondary' : 'primary'}
            disabled={createWidget.isPending}
            onClick={() => createWidget.mutate({ projectId })}
          >
            {createWidget.isPending
              ? 'Creating…'
              : widgets?.length
                ? 'Add another chat widget'
                : 'Create a chat widget'}
          </Button>
        ) : null}
      </Card>
    </main>
  );
}
