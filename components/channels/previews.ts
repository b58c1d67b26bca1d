import type { ChannelPreview } from './channel-preview';
import { chatappChannelPreview } from './chatapp/chatapp-preview-message';
import { tgChannelPreview } from './tg/tg-preview-message';

/**
 * The kinds the simulator can draw its conversation as (its "Preview as" switches), in the order
 * shown: one line a kind that has a preview.
 */
export const CHANNEL_PREVIEWS = {
  tg: tgChannelPreview,
  chatapp: chatappChannelPreview,
} satisfies Record<string, ChannelPreview>;

export type PreviewKind = keyof typeof CHANNEL_PREVIEWS;
