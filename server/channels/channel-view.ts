import { CHANNEL_STATUS } from '@/lib/channels/descriptors';
import type { ChannelRow } from './channel-module';
import { chatappView } from './chatapp/channel-service';
import { socialView } from './social/channel-service';
import { telephonyView } from './telephony/channel-service';
import { widgetView } from './widget/channel-service';

/**
 * What the Channels tab shows: never a token, an app secret nor a webhook secret; a widget's
 * settings and snippet, a chat-app number's ids, webhook address and window template; an
 * Instagram account's id and webhook address; a telephony channel's voice settings and the
 * webhook addresses to enter in jambonz.
 */
export function channelView(c: ChannelRow) {
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
    widget: c.kind === 'widget' ? widgetView(c) : null,
    chatapp: c.kind === 'chatapp' ? chatappView(c) : null,
    social: c.kind === 'social' ? socialView(c) : null,
    telephony: c.kind === 'telephony' ? telephonyView(c) : null,
  };
}
export type ChannelView = ReturnType<typeof channelView>;
