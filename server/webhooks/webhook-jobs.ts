import { getDb } from '@/server/db';
import { safeFetch } from '@/server/http';
import { defineJob, enqueueMany } from '@/server/jobs/jobs';
import { deliverWebhook } from './webhook-delivery';

interface WebhookJobData {
  projectId: number;
  /** A bigint, as text: job data is JSON. */
  messageId: string;
}

/** Deliveries of one project at a time at most; a receiver that hangs holds up only these. */
export const WEBHOOK_PROJECT_CONCURRENCY = 2;

/**
 * One job per message, nothing retried. Deliveries run side by side, a bounded number per
 * project, so a slow or hanging receiver delays only its own project's webhooks: it can hold
 * at most WEBHOOK_PROJECT_CONCURRENCY of the workers' batches.
 */
export const webhookDeliveryJob = defineJob<WebhookJobData>({
  name: 'webhook.deliver',
  batchSize: 10,
  groups: { of: (data) => `project-${data.projectId}`, perGroup: WEBHOOK_PROJECT_CONCURRENCY, workers: 4 },
  async handle(data) {
    await deliverWebhook(
      await getDb(),
      (url, init) => safeFetch(url, init),
      data.projectId,
      BigInt(data.messageId),
    );
  },
});

/**
 * Queues a delivery for each stored message, in one statement. The engine calls this only for
 * projects with a webhook URL; each delivery reads the URL again when it runs.
 */
export async function queueWebhookDeliveries(projectId: number, messageIds: bigint[]): Promise<void> {
  await enqueueMany(
    webhookDeliveryJob,
    messageIds.map((id) => ({ data: { projectId, messageId: String(id) }, retryLimit: 0 })),
  );
}
