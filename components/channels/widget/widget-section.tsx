'use client';

import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { ChannelHeader, type ChannelSectionProps } from '../channel-section';
import { WidgetChannel } from './widget-channel';

/** Chat widgets on the Channels tab: create one, set its look and sites, copy its snippet. */
export function WidgetSection({
  projectId,
  canManage,
  channels,
  onChanged,
  removeButton,
}: ChannelSectionProps) {
  const trpc = useTRPC();
  const createWidget = useMutation(trpc.channels.connect.mutationOptions({ onSuccess: onChanged }));
  const widgets = channels?.flatMap((c) => (c.widget ? [{ ...c, widget: c.widget }] : []));
  return (
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
              onSaved={onChanged}
            />
          </li>
        ))}
      </ul>
      {canManage ? (
        <Button
          variant={widgets?.length ? 'secondary' : 'primary'}
          disabled={createWidget.isPending}
          onClick={() => createWidget.mutate({ projectId, kind: 'widget' })}
        >
          {createWidget.isPending
            ? 'Creating…'
            : widgets?.length
              ? 'Add another chat widget'
              : 'Create a chat widget'}
        </Button>
      ) : null}
    </Card>
  );
}
