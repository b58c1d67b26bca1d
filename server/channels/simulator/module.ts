import type { ChannelModule } from '../channel-module';
import { simulatorChannel } from './simulator-channel';

/** The kind this folder is. */
export const kind = 'simulator';

export const channelModule = { kind, adapter: simulatorChannel } satisfies ChannelModule;
