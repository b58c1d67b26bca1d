import type { ChannelModule } from '../channel-module';
import { tgChannel } from './adapter';
import { removeTgWebhook } from './channel-service';
import { tgInbound } from './updates';

export const tgModule: ChannelModule = {
  kind: 'tg',
  adapter: tgChannel,
  disconnect: removeTgWebhook,
  inbound: tgInbound,
};
