/** The channels' side of the engine's channel port (server/engine/channel-port.ts), for channel code. */

export { CLIENT_TYPES } from '@/lib/channels/descriptors';
export type {
  ChannelAdapter,
  ChannelClient,
  ChannelContext,
  DeliveryResult,
  OutgoingMessage,
  SendContext,
} from '@/server/engine/channel-port';
