import type { ChannelModule } from '../channel-module';
import { socialChannel } from './adapter';
import { socialHandlers } from './functions';
import { socialInbound } from './updates';
import { socialHandshake, socialWebhook } from './webhook';

/** Instagram Direct (docs/channels/instagram.md): disconnecting undoes nothing at Meta (the app's webhook stays). */
export const socialModule: ChannelModule = {
  kind: 'social',
  adapter: socialChannel,
  functions: socialHandlers,
  inbound: socialInbound,
  webhook: { GET: socialHandshake, POST: socialWebhook },
};
