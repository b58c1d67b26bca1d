import type { ChannelModule } from '../channel-module';
import { telephonyChannel } from './adapter';
import { telephonyRecordingJob } from './recordings';
import { telephonyInbound } from './updates';
import { telephonyEndpoint, telephonyWebhook } from './webhook';

export const telephonyModule: ChannelModule = {
  kind: 'telephony',
  adapter: telephonyChannel,
  jobs: [telephonyRecordingJob],
  inbound: telephonyInbound as ChannelModule['inbound'],
  webhook: { POST: telephonyWebhook },
  endpoints: { POST: telephonyEndpoint },
};
