import type { ChannelModule } from '../channel-module';
import { widgetChannel } from './adapter';

export const widgetModule: ChannelModule = { kind: 'widget', adapter: widgetChannel };
