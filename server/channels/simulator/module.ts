import type { ChannelModule } from '../channel-module';
import { simulatorChannel } from './simulator-channel';

export const simulatorModule: ChannelModule = { kind: 'simulator', adapter: simulatorChannel };
