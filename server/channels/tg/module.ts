import type { ChannelModule } from '../channel-module';
import { removeTgWebhook } from './channel-service';

export const tgModule: ChannelModule = {
  kind: 'tg',
  disconnect: removeTgWebhook,
};
