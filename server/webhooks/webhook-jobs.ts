import { getDb } from '@/server/db';
import { PreparedStatement, plainSql } from '@/server/db/raw-sql';
import { safeFetch } from '@/server/http';
import { defineJob, enqueueMany } from '@/server/jobs/jobs';
import { deliverWebhook } from './webhook-delivery';

interface WebhookJobData {
  projectId: number;
  /** A bigint, as text: job data is JSON. */
  messageId: string;
  /** The event's outbox row (a bigint as text): done once the receiver answered. */
  outboxId?: string;
}

/** Deliveries of one project at a time at most; a receiver that hangs holds up only these. */
export const WEBHOOK_PROJECT_CONCURRENCY = 2;

const takeOutbox = new PreparedStatement(
  // 'pending' too: the job may start before its row is marked queued.
  `UPDATE "Outbox" SET attempts = attempts + 1, state = 'queued'
   WHERE id = $id::bigint AND state IN ('pending', 'queued') RETURNING id`,
);
const finishOutbox = new PreparedStatement(
  `UPDATE "Outbox" SET state = 'done', "doneAt" = now() AT TIME ZONE 'UTC', error = $error WHERE id = $id::bigint`,
);

/**
 * One job per message. A delivery that got an answer (even an error) is never repeated; one
 * cut off by a crash is attempted again by the job's retry, with the same `webhook-id`, as its
 * outbox row is still not done. Deliveries run side by side, a bounded number per
 * project, so a slow or hanging receiver delays only its own project's webhooks: it can hold
 * at most WEBHOOK_PROJECT_CONCURRENCY of the workers' batches.
 */
export const webhookDeliveryJob = defineJob<WebhookJobData>({
  name: 'webhook.deliver',
  batchSize: 10,
  groups: { of: (data) => `project-${data.projectId}`, perGroup: WEBHOOK_PROJECT_CONCURRENCY, workers: 4 },
  async handle(data) {
    const db = await getDb();
    const outbox = data.outboxId ? { id: data.outboxId } : null;
    if (outbox && !(await plainSql(db).run(takeOutbox, outbox)).length) return;
    const error = await deliverWebhook(
      db,
      (url, init) => safeFetch(url, init),
      data.projectId,
      BigInt(data.messageId),
    );
    if (outbox) await plainSql(db).run(finishOutbox, { ...outbox, error });
  },
});

/**
 * Queues a delivery for each stored message, in one statement: the engine's outbox rows of
 * projects with a webhook URL; each delivery reads the URL again when it runs. A job retried
 * after a crash delivers only while its row is not done.
 */
export async function queueWebhookDeliveries(
  projectId: number,
  deliveries: { messageId: bigint; outboxId?: bigint }[],
): Promise<void> {
  await enqueueMany(
    webhookDeliveryJob,
    deliveries.map((d) => ({
      data: {
        projectId,
        messageId: String(d.messageId),
        ...(d.outboxId !== undefined ? { outboxId: String(d.outboxId) } : {}),
      },
      retryLimit: d.outboxId !== undefined ? 5 : 0,
    })),
  );
}
