import { getDb } from '@/server/db';
import { safeFetch } from '@/server/http';
import { defineJob, enqueue } from '@/server/jobs/jobs';
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

/** Queues a delivery for each stored message when the project has a webhook URL. */
export async function queueWebhookDeliveries(projectId: number, messageIds: bigint[]): Promise<void> {
  const db = await getDb();
  const project = await db.project.findUnique({ where: { id: projectId }, select: { webhookUrl: true } });
  if (!project?.webhookUrl) return;
  for (const id of messageIds) {
    await enqueue(webhookDeliveryJob, { projectId, messageId: String(id) }, { retryLimit: 0 });
  }
}
