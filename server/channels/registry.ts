import { installChannelAdapters, channelFor as installedChannel } from '@/server/engine/channel-port';
import { installFunctionAreas } from '@/server/engine/functions/registry';
import type { ChannelModule } from './channel-module';
import { CHANNEL_MODULES } from './modules';

export { registerChannel } from '@/server/engine/channel-port';

/**
 * Checks the channel modules' configuration variables and hands their adapters and in-flow
 * functions to the engine, which imports no
 * channel (server/engine/channel-port.ts): the runtime does it at start, a test's setup before
 * its tests (server/testing/db-file-setup.ts). Once a process.
 */
export function installChannels(): void {
  const globalForChannels = globalThis as unknown as { blockbotChannelsInstalled?: boolean };
  if (globalForChannels.blockbotChannelsInstalled) return;
  const modules: readonly ChannelModule[] = CHANNEL_MODULES;
  // Their variables first: a wrong one stops the start, naming it (EnvError).
  for (const module of modules) module.env?.();
  globalForChannels.blockbotChannelsInstalled = true;
  installChannelAdapters(modules.map((m) => m.adapter));
  installFunctionAreas(modules.flatMap((m) => (m.functions ? [m.functions] : [])));
}

/** A client type's adapter, for channel and API code (the channels installed first, once). */
export function channelFor(clientType: number) {
  installChannels();
  return installedChannel(clientType);
}
