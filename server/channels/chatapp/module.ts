import type { ChannelModule } from '../channel-module';
import { chatappChannel } from './adapter';
import { chatappInbound } from './updates';
import { chatappHandshake, chatappWebhook } from './webhook';

export const chatappModule: ChannelModule = {
  kind: 'chatapp',
  adapter: chatappChannel,
  inbound: chatappInbound,
  webhook: { GET: chatappHandshake, POST: chatappWebhook },
};
