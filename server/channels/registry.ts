import type { ChannelAdapter, DeliveryResult } from './channel-adapter';
import { CHANNEL_MODULES } from './modules';

/**
 * Adapters by client type, from the channel modules (a test process may put its own in place).
 * Messengers without a module here get an adapter that explains so.
 */
const adapters = new Map<number, ChannelAdapter>(
  CHANNEL_MODULES.map((m) => [m.adapter.clientType, m.adapter]),
);

export function registerChannel(adapter: ChannelAdapter): void {
  adapters.set(adapter.clientType, adapter);
}

function unavailable(clientType: number): ChannelAdapter {
  const error = `No channel adapter for client type ${clientType} is available on this server yet.`;
  return {
    clientType,
    async send(): Promise<DeliveryResult> {
      return { delivered: false, error };
    },
    async call() {
      throw new Error(error);
    },
  };
}

export function channelFor(clientType: number): ChannelAdapter {
  return adapters.get(clientType) ?? unavailable(clientType);
}
