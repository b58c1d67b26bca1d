import { z } from 'zod';
import { DELIVERY_STATUSES } from '@/lib/history-message';
import { WEBHOOK_CONCURRENCY } from '@/lib/webhooks/adaptive-concurrency';
import { getDb } from '@/server/db';
import { plainSql } from '@/server/db/raw-sql';
import type { WebhookTarget } from '@/server/engine/outbox-rows';
import { finishOutbox } from '@/server/engine/store/outbox';
import { defineJob, enqueueMany } from '@/server/jobs/jobs';
import { groupOf, startWebhookDispatcher, wakeWebhookDispatcher } from './webhook-dispatcher';

const webhookJobData = z
  .object({
    projectId: z.number().int(),
    /** A message's id (a bigint, as text: job data is JSON)… */
    messageId: z.string().regex(/^\d+$/).optional(),
    /** …with the delivery status it reports, for a status report… */
    status: z.enum(DELIVERY_STATUSES).optional(),
    /** …or a submission's. */
    submissionId: z.number().int().optional(),
    /** The event's outbox row (a bigint as text): done once the receiver answered. */
    outboxId: z.string().regex(/^\d+$/).optional(),
  })
  .refine((data) => (data.messageId === undefined) !== (data.submissionId === undefined), {
    message: 'a webhook job delivers a message or a submission',
  });
type WebhookJobData = z.infer<typeof webhookJobData>;

/**
 * Deliveries of one project at once, per worker process, before its receiver answered: a
 * receiver that hangs holds up only these. The limit then adapts to the receiver
 * (lib/webhooks/adaptive-concurrency.ts): up to WEBHOOK_CONCURRENCY.max while it answers quickly.
 */
export const WEBHOOK_PROJECT_CONCURRENCY = WEBHOOK_CONCURRENCY.initial;

/** Retries of a delivery that was cut off (its worker died) or failed before an answer came. */
export const WEBHOOK_RETRIES = 5;

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
 * One job per message or submission, consumed by this process's dispatcher
 * (webhook-dispatcher.ts: batched fetches and writes, per-project adaptive concurrency, each
 * client's deliveries in order). A delivery that got an answer (even an error) is never
 * repeated; one cut off by a crash is attempted again by the job's retry, with the same
 * `webhook-id`, as its outbox row is still not done. Once the retries are spent the row is
 * ended by `webhookGaveUpJob`. A slow or hanging receiver delays only its own project's
 * webhooks: it holds WEBHOOK_PROJECT_CONCURRENCY of them at once.
 */
export const webhookDeliveryJob = defineJob<WebhookJobData>({
  name: 'webhook.deliver',
  // The dispatcher groups by project itself; the group lets its fetch skip a project it holds enough of.
  groups: { of: (data) => groupOf(data.projectId), perGroup: WEBHOOK_PROJECT_CONCURRENCY, workers: 1 },
  deadLetter: webhookGaveUpJob,
  consume: startWebhookDispatcher,
  async handle() {
    throw new Error('webhook.deliver jobs are consumed by the webhook dispatcher');
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
          ? { messageId: String(target.messageId), ...(target.status ? { status: target.status } : {}) }
          : { submissionId: target.submissionId }),
        ...(outboxId !== undefined ? { outboxId: String(outboxId) } : {}),
      },
      retryLimit: outboxId !== undefined ? WEBHOOK_RETRIES : 0,
    })),
  );
  wakeWebhookDispatcher();
}
