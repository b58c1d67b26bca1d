'use client';

import { Card, CardTitle } from '@/components/ui/card';
import { ChannelHeader, type ChannelSectionProps } from '../channel-section';
import { SocialAccount, SocialConnectCard } from './social-channel';

/** Instagram accounts on the Channels tab. */
export function SocialSection({
  projectId,
  canManage,
  channels,
  onChanged,
  removeButton,
}: ChannelSectionProps) {
  const accounts = channels?.flatMap((c) => (c.social ? [{ ...c, social: c.social }] : []));
  return (
    <>
      {canManage ? <SocialConnectCard projectId={projectId} onConnected={onChanged} /> : null}
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
    </>
  );
}
