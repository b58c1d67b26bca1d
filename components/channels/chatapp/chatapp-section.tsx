'use client';

import { Card, CardTitle } from '@/components/ui/card';
import { ChannelHeader, type ChannelSectionProps } from '../channel-section';
import { ChatappConnectCard, ChatappGatewaySession, ChatappNumber } from './chatapp-channel';

/** Chat-app numbers on the Channels tab: connected by the Cloud API or a session gateway. */
export function ChatappSection({
  projectId,
  canManage,
  channels,
  onChanged,
  removeButton,
}: ChannelSectionProps) {
  const numbers = channels?.flatMap((c) => (c.chatapp ? [{ ...c, chatapp: c.chatapp }] : []));
  return (
    <>
      {canManage ? <ChatappConnectCard projectId={projectId} onConnected={onChanged} /> : null}
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
                  onChanged={onChanged}
                />
              ) : (
                <ChatappNumber
                  projectId={projectId}
                  channelId={channel.id}
                  chatapp={channel.chatapp}
                  canManage={canManage}
                  onSaved={onChanged}
                />
              )}
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
