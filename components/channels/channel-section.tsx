'use client';

import type { ComponentType, ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import type { ChannelView } from '@/server/channels/channel-view';

const dateTime = (d: Date | string | null) => (d ? new Date(d).toLocaleString() : 'never');

/**
 * What the Channels tab gives each kind's section (`CHANNEL_SECTIONS`, sections.ts): the project,
 * whether the member manages it, the kind's connected channels, and the shared pieces.
 */
export interface ChannelSectionProps {
  projectId: number;
  canManage: boolean;
  /** The kind's channels, oldest first; undefined while they load. */
  channels: ChannelView[] | undefined;
  /** The list changed (a channel connected, saved or removed). */
  onChanged(): unknown;
  /** The Disconnect (or Delete) button of a channel, once the manager confirms `question`; none for operators. */
  removeButton(label: string, question: string, channelId: number): ReactNode;
  /** Why the kind's messenger cannot call this server's webhooks (BLOCKBOT_BASE_URL), or null. */
  webhookProblem: string | null;
}

export type ChannelSection = ComponentType<ChannelSectionProps>;

/**
 * What every connected channel's row starts with, whatever its kind: what it is, its badges,
 * its removal, when it last heard from the messenger, and its last error.
 */
export function ChannelHeader({
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
