import { z } from 'zod';
import { connectCloudInput, connectGatewayInput } from '@/lib/channels/connect-inputs';
import { chatappClientView } from '@/lib/chatapp/client-view';
import { type ChannelModule, channelOperation } from '../channel-module';
import { chatappChannel } from './adapter';
import { checkChatapp } from './api-checks';
import {
  chatappView,
  connectCloudChannel,
  updateChatappInput,
  updateChatappSettings,
} from './channel-service';
import { chatappEnv } from './env';
import { chatappHandlers } from './functions';
import {
  connectGatewayChannel,
  disconnectGateway,
  gatewayPairing,
  isGatewayChannel,
  restartGateway,
} from './gateway-service';
import { chatappInbound } from './updates';
import { chatappHandshake, chatappWebhook } from './webhook';

/** A number is connected by the Cloud API's ids and token, or paired through a session gateway. */
const connectInput = z.discriminatedUnion('provider', [
  connectCloudInput.extend({ provider: z.literal('cloud') }),
  connectGatewayInput.extend({ provider: z.literal('gateway') }),
]);
const gatewayChannelInput = z.object({ channelId: z.number().int().positive() });

/** The kind this folder is, and what the Channels tab shows of its channels (channel-view.ts). */
export const kind = 'chatapp';
export const view = chatappView;

export const channelModule = {
  kind,
  apiChecks: [checkChatapp],
  env: chatappEnv,
  adapter: chatappChannel,
  clientView: chatappClientView,
  functions: chatappHandlers,
  connect: channelOperation(connectInput, (db, projectId, input) =>
    input.provider === 'cloud'
      ? connectCloudChannel(db, projectId, input)
      : connectGatewayChannel(db, projectId, input),
  ),
  update: channelOperation(updateChatappInput, updateChatappSettings),
  // A gateway session's state and QR code, polled by the card while it pairs; its restart.
  queries: {
    pairing: channelOperation(gatewayChannelInput, (db, projectId, input) =>
      gatewayPairing(db, projectId, input.channelId),
    ),
  },
  actions: {
    restart: channelOperation(gatewayChannelInput, (db, projectId, input) =>
      restartGateway(db, projectId, input.channelId),
    ),
  },
  inbound: chatappInbound,
  disconnect: async (channel) => (isGatewayChannel(channel) ? disconnectGateway(channel) : null),
  webhook: { GET: chatappHandshake, POST: chatappWebhook },
} satisfies ChannelModule;
