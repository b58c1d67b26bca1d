import { CHANNEL_STATUS } from '@/lib/channels/descriptors';
import type { ChannelRow } from './channel-module';
import { CHANNEL_KINDS } from './modules';

type Kind = (typeof CHANNEL_KINDS)[number];

/** Each kind's own part of a channel's view (its folder's `view`), null on a channel of another kind. */
type KindViews = {
  [K in Kind as K['kind']]: K extends { view(channel: ChannelRow): infer V } ? V | null : null;
};

/**
 * What the Channels tab shows of a channel: what every kind has, and its kind's own part, keyed
 * by kind (a widget's settings and snippet, a chat-app number's ids and webhook address, …), from
 * its folder's `view`. Never a token, an app secret nor a webhook secret.
 */
export function channelView(c: ChannelRow) {
  const own = Object.fromEntries(
    CHANNEL_KINDS.map((k) => [k.kind, k.kind === c.kind && 'view' in k ? k.view(c) : null]),
  ) as KindViews;
  return {
    id: c.id,
    kind: c.kind,
    groupId: c.groupId,
    name: c.name,
    receiveMode: c.receiveMode,
    // A chat-app session not paired yet (0) or asleep (2) receives nothing either.
    receiving: c.status === CHANNEL_STATUS.started,
    lastUpdateAt: c.lastUpdateAt,
    lastError: c.lastError,
    createdAt: c.createdAt,
    ...own,
  };
}
export type ChannelView = ReturnType<typeof channelView>;
