import { type ChannelAdapter, CLIENT_TYPES } from '@/server/channels/channel-adapter';

/**
 * The chat widget as a channel. The visitor's browser reads the dialog from the history (the
 * widget's routes, server/channels/widget/), so a message is delivered once it is stored: the
 * engine announces every message it stores (server/live), bot's and operators' alike, and the
 * visitor's open streams send it on. The widget shows `typing` while the bot works.
 */
export const widgetChannel: ChannelAdapter = {
  clientType: CLIENT_TYPES.widget,
  deliveredWhenStored: true,
  typingIndicator: true,
  async send() {
    return { delivered: true };
  },
  async call(_projectId, fn) {
    throw new Error(`${fn} is not a function of the chat widget`);
  },
};
