import { connectSocialInput } from '@/lib/channels/connect-inputs';
import { socialClientView } from '@/lib/social/client-view';
import { type ChannelModule, channelOperation } from '../channel-module';
import { socialChannel } from './adapter';
import { checkSocialSubscription } from './api-checks';
import { connectSocialChannel, socialView } from './channel-service';
import { socialEnv } from './env';
import { socialHandlers } from './functions';
import { socialInbound } from './updates';
import { socialHandshake, socialWebhook } from './webhook';

/** The kind this folder is, and what the Channels tab shows of its channels (channel-view.ts). */
export const kind = 'social';
export const view = socialView;

/** Instagram Direct (docs/channels/instagram.md): disconnecting undoes nothing at Meta (the app's webhook stays). */
export const channelModule = {
  kind,
  apiChecks: [checkSocialSubscription],
  env: socialEnv,
  adapter: socialChannel,
  clientView: socialClientView,
  functions: socialHandlers,
  connect: channelOperation(connectSocialInput, connectSocialChannel),
  inbound: socialInbound,
  webhook: { GET: socialHandshake, POST: socialWebhook },
} satisfies ChannelModule;
