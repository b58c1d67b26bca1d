import { broadcastDispatchJob, broadcastSendJob } from '@/server/broadcasts/broadcast-jobs';
import type { ChannelModule } from '@/server/channels/channel-module';
import { channelSweepJob } from '@/server/channels/inbound/pipeline';
import { CHANNEL_MODULES } from '@/server/channels/modules';
import { scheduledSendJob } from '@/server/engine/engine';
import { knowledgeIndexGaveUpJob, knowledgeIndexJob } from '@/server/knowledge/index-job';
import { webhookDeliveryJob, webhookGaveUpJob } from '@/server/webhooks/webhook-jobs';
import type { JobDefinition } from './jobs';
import { testRunJob } from './test-run-job';

/** Every job kind the worker handles: the core's, and each channel module's own (`jobs`). */
export const jobDefinitions = [
  scheduledSendJob,
  webhookDeliveryJob,
  webhookGaveUpJob,
  broadcastSendJob,
  broadcastDispatchJob,
  channelSweepJob,
  knowledgeIndexJob,
  knowledgeIndexGaveUpJob,
  testRunJob,
  ...(CHANNEL_MODULES as readonly ChannelModule[]).flatMap((m) => m.jobs ?? []),
] as unknown as readonly JobDefinition<object>[];
