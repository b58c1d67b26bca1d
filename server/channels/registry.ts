import { installChannelAdapters, channelFor as installedChannel } from '@/server/engine/channel-port';
import { installFunctionAreas } from '@/server/engine/functions/registry';
import { CHANNEL_MODULES } from './modules';

export { registerChannel } from '@/server/engine/channel-port';

/**
 * Hands the channel modules' adapters and in-flow functions to the engine, which imports no
 * channel (server/engine/channel-port.ts): the runtime does it at start, a test's setup before
 * its tests (server/testing/install-channels.ts). Once a process.
 */
export function installChannels(): void {
  const globalForChannels = globalThis as unknown as { blockbotChannelsInstalled?: boolean };
  if (globalForChannels.blockbotChannelsInstalled) return;
  globalForChannels.blockbotChannelsInstalled = true;
  installChannelAdapters(CHANNEL_MODULES.map((m) => m.adapter));
  installFunctionAreas(CHANNEL_MODULES.flatMap((m) => (m.functions ? [m.functions] : [])));
}

/** A client type's adapter, for channel and API code (the channels installed first, once). */
export function channelFor(clientType: number) {
  installChannels();
  return installedChannel(clientType);
}
