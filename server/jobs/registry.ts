import { broadcastSendJob } from '@/server/broadcasts/broadcast-jobs';
import { scheduledSendJob } from '@/server/engine/engine';
import { webhookDeliveryJob } from '@/server/webhooks/webhook-jobs';
import type { JobDefinition } from './jobs';

/** Every job kind the worker handles. */
export const jobDefinitions = [
  scheduledSendJob,
  webhookDeliveryJob,
  broadcastSendJob,
] as unknown as readonly JobDefinition<object>[];
