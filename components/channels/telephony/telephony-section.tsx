'use client';

import { ChannelHeader, type ChannelSectionProps } from '../channel-section';
import { TelephonyCard } from './telephony-channel';

/** Telephony's caller numbers on the Channels tab. */
export function TelephonySection({
  projectId,
  canManage,
  channels,
  onChanged,
  removeButton,
}: ChannelSectionProps) {
  const lines = channels?.flatMap((c) => (c.telephony ? [{ ...c, telephony: c.telephony }] : []));
  return (
    <TelephonyCard
      projectId={projectId}
      canManage={canManage}
      channels={lines}
      onChanged={onChanged}
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
  );
}
