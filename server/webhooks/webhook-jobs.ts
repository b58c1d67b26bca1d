import { getDb } from '@/server/db';
import { safeFetch } from '@/server/http';
import { defineJob, enqueueMany } from '@/server/jobs/jobs';
import { deliverWebhook } from './webhook-delivery';

interface WebhookJobData {
  projectId: number;
  /** A bigint, as text: job data is JSON. */
  messageId: string;
}

/** One job per message: a slow or failing receiver delays nothing else, and nothing is retried. */
export const webhookDeliveryJob = defineJob<WebhookJobData>({
  name: 'webhook.deliver',
  batchSize: 20,
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
