import { viberClientView } from '@/lib/viber/client-view';
import { connectViberInput } from '@/lib/viber/connect-input';
import { type ChannelModule, channelOperation } from '../channel-module';
import { viberChannel } from './adapter';
import {
  connectViberChannel,
  disconnectViber,
  viberView,
  viberWebhookAddressProblem,
} from './channel-service';
import { viberEnv } from './env';
import { viberInbound } from './updates';
import { viberWebhook } from './webhook';

/** The kind this folder is, and what the Channels tab shows of its channels (channel-view.ts). */
export const kind = 'viber';
export const view = viberView;

/** A Viber bot on the REST Bot API (docs/channels/viber.md): disconnecting removes its webhook. */
export const channelModule = {
  kind,
  env: viberEnv,
  webhookAddressProblem: () => viberWebhookAddressProblem(),
  adapter: viberChannel,
  clientView: viberClientView,
  connect: channelOperation(connectViberInput, connectViberChannel),
  disconnect: disconnectViber,
  inbound: viberInbound,
  webhook: { POST: viberWebhook },
} satisfies ChannelModule;
