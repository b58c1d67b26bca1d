import { broadcastDispatchJob, broadcastSendJob } from '@/server/broadcasts/broadcast-jobs';
import { channelSweepJob } from '@/server/channels/inbound/pipeline';
import { telephonyRecordingJob } from '@/server/channels/telephony/recordings';
import { tgPollJob } from '@/server/channels/tg/polling';
import { scheduledSendJob } from '@/server/engine/engine';
import { knowledgeIndexGaveUpJob, knowledgeIndexJob } from '@/server/knowledge/index-job';
import { webhookDeliveryJob, webhookGaveUpJob } from '@/server/webhooks/webhook-jobs';
import type { JobDefinition } from './jobs';

/** Every job kind the worker handles. */
export const jobDefinitions = [
  scheduledSendJob,
  webhookDeliveryJob,
  webhookGaveUpJob,
  broadcastSendJob,
  broadcastDispatchJob,
  channelSweepJob,
  tgPollJob,
  telephonyRecordingJob,
  knowledgeIndexJob,
  knowledgeIndexGaveUpJob,
] as unknown as readonly JobDefinition<object>[];
