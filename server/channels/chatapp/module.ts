import type { ChannelModule } from '../channel-module';
import { chatappChannel } from './adapter';
import { chatappHandlers } from './functions';
import { disconnectGateway, isGatewayChannel } from './gateway-service';
import { chatappInbound } from './updates';
import { chatappHandshake, chatappWebhook } from './webhook';

export const chatappModule: ChannelModule = {
  kind: 'chatapp',
  adapter: chatappChannel,
  functions: chatappHandlers,
  inbound: chatappInbound,
  disconnect: async (channel) => (isGatewayChannel(channel) ? disconnectGateway(channel) : null),
  webhook: { GET: chatappHandshake, POST: chatappWebhook },
};
