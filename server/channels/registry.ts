import type { ChannelAdapter, DeliveryResult } from './channel-adapter';
import { CHANNEL_MODULES } from './modules';

/**
 * Adapters by client type, from the channel modules (a test process may put its own in place).
 * Messengers without a module here get an adapter that explains so.
 */
let registered: Map<number, ChannelAdapter> | undefined;

/**
 * Built at first use, not as this file loads: a module's own imports (its updates run the
 * engine, which sends through here) reach this file before the list of modules is complete.
 */
function adapters(): Map<number, ChannelAdapter> {
  registered ??= new Map(CHANNEL_MODULES.map((m) => [m.adapter.clientType, m.adapter]));
  return registered;
}

export function registerChannel(adapter: ChannelAdapter): void {
  adapters().set(adapter.clientType, adapter);
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
  return adapters().get(clientType) ?? unavailable(clientType);
}
