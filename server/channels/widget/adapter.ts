import { type ChannelAdapter, CLIENT_TYPES } from '@/server/channels/channel-adapter';
import { publishLive } from '@/server/live/live-events';

/**
 * The chat widget as a channel. The visitor's browser reads the dialog from the history (the
 * widget's routes, server/channels/widget/), so a message is delivered once it is stored: a
 * send tells the visitor's open connections, on whichever instance they are, that it is there.
 * The engine announces its own messages too; a repeat is harmless (the stream sends each
 * message once, by id), and an operator's answer stored outside the engine is told here.
 */
export const widgetChannel: ChannelAdapter = {
  clientType: CLIENT_TYPES.widget,
  deliveredWhenStored: true,
  async send(client, message) {
    if (message.id !== undefined)
      publishLive([
        { kind: 'message', projectId: client.projectId, clientId: client.id, messageId: String(message.id) },
      ]);
    return { delivered: true };
  },
  async call(_projectId, fn) {
    throw new Error(`${fn} is not a function of the chat widget`);
  },
};
