import { broadcastDispatchJob, broadcastSendJob } from '@/server/broadcasts/broadcast-jobs';
import { tgPollJob } from '@/server/channels/tg/polling';
import { tgSweepJob } from '@/server/channels/tg/updates';
import { scheduledSendJob } from '@/server/engine/engine';
import { webhookDeliveryJob, webhookGaveUpJob } from '@/server/webhooks/webhook-jobs';
import type { JobDefinition } from './jobs';

/** Every job kind the worker handles. */
export const jobDefinitions = [
  scheduledSendJob,
  webhookDeliveryJob,
  webhookGaveUpJob,
  broadcastSendJob,
  broadcastDispatchJob,
  tgSweepJob,
  tgPollJob,
] as unknown as readonly JobDefinition<object>[];
