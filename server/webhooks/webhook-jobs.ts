import { z } from 'zod';
import { getDb } from '@/server/db';
import { plainSql } from '@/server/db/raw-sql';
import type { WebhookTarget } from '@/server/engine/outbox-rows';
import { finishOutbox, takeOutbox } from '@/server/engine/store';
import { safeFetch } from '@/server/http';
import { defineJob, enqueueMany } from '@/server/jobs/jobs';
import { deliverWebhook } from './webhook-delivery';

const webhookJobData = z
  .object({
    projectId: z.number().int(),
    /** A message's id (a bigint, as text: job data is JSON)… */
    messageId: z.string().regex(/^\d+$/).optional(),
    /** …or a submission's. */
    submissionId: z.number().int().optional(),
    /** The event's outbox row (a bigint as text): done once the receiver answered. */
    outboxId: z.string().regex(/^\d+$/).optional(),
  })
  .refine((data) => (data.messageId === undefined) !== (data.submissionId === undefined), {
    message: 'a webhook job delivers a message or a submission',
  });
type WebhookJobData = z.infer<typeof webhookJobData>;

/** Deliveries of one project at a time at most, per worker process; a receiver that hangs holds up only these. */
export const WEBHOOK_PROJECT_CONCURRENCY = 2;

/** Retries of a delivery that was cut off (its worker died) or failed before an answer came. */
export const WEBHOOK_RETRIES = 5;

/** What the job's data says to deliver. */
function targetOf(data: WebhookJobData): WebhookTarget {
  return data.messageId !== undefined
    ? { messageId: BigInt(data.messageId) }
    : { submissionId: data.submissionId ?? 0 };
}

/**
 * Ends the outbox row of a delivery whose retries are spent (every attempt failed or was cut
 * off by a crash), so the outbox keeps no row that nothing will carry out.
 */
export const webhookGaveUpJob = defineJob<WebhookJobData>({
  name: 'webhook.gave_up',
  async handle(data) {
    const { outboxId } = webhookJobData.parse(data);
    if (outboxId === undefined) return;
    await plainSql(await getDb()).run(finishOutbox, {
      id: outboxId,
      error: `not delivered: all ${WEBHOOK_RETRIES + 1} attempts failed or were cut off before an answer`,
    });
  },
});

/**
 * One job per message or submission. A delivery that got an answer (even an error) is never
 * repeated; one cut off by a crash is attempted again by the job's retry, with the same
 * `webhook-id`, as its outbox row is still not done. Once the retries are spent the row is
 * ended by `webhookGaveUpJob`. Deliveries run side by side, a bounded number per project, so
 * a slow or hanging receiver delays only its own project's webhooks: it can hold at most
 * WEBHOOK_PROJECT_CONCURRENCY of each worker process's batches.
 */
export const webhookDeliveryJob = defineJob<WebhookJobData>({
  name: 'webhook.deliver',
  batchSize: 10,
  groups: { of: (data) => `project-${data.projectId}`, perGroup: WEBHOOK_PROJECT_CONCURRENCY, workers: 4 },
  deadLetter: webhookGaveUpJob,
  async handle(raw, job) {
    const data = webhookJobData.parse(raw);
    const db = await getDb();
    const outbox = data.outboxId ? { id: data.outboxId } : null;
    if (outbox && !(await plainSql(db).run(takeOutbox, outbox)).length) return;
    // The job's signal stops a delivery whose claim was taken away (its heartbeat went unseen,
    // the process is stopping): the worker is freed, and the job's retry delivers it.
    const error = await deliverWebhook(
      db,
      (url, init) => safeFetch(url, { ...init, signal: job.signal }),
      data.projectId,
      targetOf(data),
    );
    if (outbox && !job.signal.aborted) await plainSql(db).run(finishOutbox, { ...outbox, error });
  },
});

/**
 * Queues a delivery for each stored message or submission, in one statement: the engine's
 * outbox rows of projects with a webhook URL; each delivery reads the URL again when it runs.
 * A job retried after a crash delivers only while its row is not done.
 */
export async function queueWebhookDeliveries(
  projectId: number,
  deliveries: { target: WebhookTarget; outboxId?: bigint }[],
): Promise<void> {
  await enqueueMany(
    webhookDeliveryJob,
    deliveries.map(({ target, outboxId }) => ({
      data: {
        projectId,
        ...('messageId' in target
          ? { messageId: String(target.messageId) }
          : { submissionId: target.submissionId }),
        ...(outboxId !== undefined ? { outboxId: String(outboxId) } : {}),
      },
      retryLimit: outboxId !== undefined ? WEBHOOK_RETRIES : 0,
    })),
  );
}
