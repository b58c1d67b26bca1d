import { connectTelephonyInput } from '@/lib/channels/connect-inputs';
import { telephonyClientView } from '@/lib/telephony/client-view';
import { type ChannelModule, channelOperation } from '../channel-module';
import { telephonyChannel } from './adapter';
import {
  connectTelephonyChannel,
  telephonyView,
  updateTelephonyInput,
  updateTelephonySettings,
} from './channel-service';
import { telephonyEnv } from './env';
import { telephonyRecordingJob } from './recordings';
import { telephonyInbound } from './updates';
import { telephonyEndpoint, telephonyWebhook } from './webhook';

/** The kind this folder is, and what the Channels tab shows of its channels (channel-view.ts). */
export const kind = 'telephony';
export const view = telephonyView;

export const channelModule = {
  kind,
  env: telephonyEnv,
  adapter: telephonyChannel,
  clientView: telephonyClientView,
  jobs: [telephonyRecordingJob],
  connect: channelOperation(connectTelephonyInput, connectTelephonyChannel),
  update: channelOperation(updateTelephonyInput, updateTelephonySettings),
  inbound: telephonyInbound as ChannelModule['inbound'],
  webhook: { POST: telephonyWebhook },
  endpoints: { POST: telephonyEndpoint },
} satisfies ChannelModule;
