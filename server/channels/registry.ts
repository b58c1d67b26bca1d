import type { ChannelAdapter, DeliveryResult } from './channel-adapter';
import { simulatorChannel } from './simulator/simulator-channel';
import { tgChannel } from './tg/adapter';
import { widgetChannel } from './widget/adapter';

/** Adapters by client type. Messengers not connected here get an adapter that explains so. */
const adapters = new Map<number, ChannelAdapter>([
  [simulatorChannel.clientType, simulatorChannel],
  [tgChannel.clientType, tgChannel],
  [widgetChannel.clientType, widgetChannel],
]);

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
