import { z } from 'zod';
import type { PrismaClient } from '@/server/db/client-type';
import { deleteInBatches } from '@/server/db/delete-in-batches';
import { deleteOldWebhookDeliveries } from '@/server/db/webhook-sql';
import type { HttpClient } from '@/server/engine/block-request';
import { invalid, notFound } from '@/server/errors';
import {
  deliveryRow,
  type PreparedWebhook,
  prepareWebhooks,
  sendWebhook,
  type WebhookEvent,
} from './webhook-delivery';

/**
 * The webhook log (docs/webhooks.md): every attempt the project's webhook got, newest first;
 * redelivering one (the same `webhook-id` and body, signed anew, recorded as a new attempt);
 * and a test event. Read and run by admins only (server/trpc/routers/webhooks.ts).
 */

/** How long the log keeps a delivery; pruned by the worker's outbox sweeper (`pruneWebhookLog`). */
export const WEBHOOK_LOG_DAYS = 14;

export const webhookLogInput = z.object({
  /** Only attempts that got no answer or an answer of 300 or more. */
  failuresOnly: z.boolean().default(false),
  /** The id of the last row of the previous page (the log pages backwards by id). */
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, 'cursor: pass the nextCursor of the previous page')
    .optional(),
  limit: z.number().int().min(1).max(100).default(50),
});

const failure = { OR: [{ status: null }, { status: { gte: 300 } }] };

/** A page of the log: the attempts without their bodies (`getDelivery` has them). */
export async function listDeliveries(
  db: PrismaClient,
  projectId: number,
  input: z.infer<typeof webhookLogInput>,
) {
  const rows = await db.webhookDelivery.findMany({
    where: {
      projectId,
      ...(input.failuresOnly && failure),
      ...(input.cursor && { id: { lt: BigInt(input.cursor) } }),
    },
    orderBy: { id: 'desc' },
    take: input.limit + 1,
    select: {
      id: true,
      createdAt: true,
      webhookId: true,
      event: true,
      url: true,
      status: true,
      durationMs: true,
      error: true,
    },
  });
  const page = rows.slice(0, input.limit);
  return {
    items: page.map((row) => ({ ...row, id: String(row.id) })),
    nextCursor: rows.length > input.limit ? String(page[page.length - 1].id) : null,
  };
}

/** One attempt with the body sent and the start of the answer. */
export async function getDelivery(db: PrismaClient, projectId: number, deliveryId: string) {
  const row = await db.webhookDelivery.findFirst({ where: { id: BigInt(deliveryId), projectId } });
  if (!row) throw notFound('No such delivery in this project: it may have been pruned from the log.');
  return {
    ...row,
    id: String(row.id),
    messageId: row.messageId === null ? null : String(row.messageId),
  };
}

async function projectHook(db: PrismaClient, projectId: number) {
  const project = await db.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { webhookUrl: true, webhookSecret: true },
  });
  if (!project.webhookUrl)
    throw invalid('The project has no webhook URL: set one under Settings → General first.', 'webhookUrl');
  return { url: project.webhookUrl, secret: project.webhookSecret };
}

/** Sends one prepared delivery now and records the attempt; returns the new log row. */
async function sendAndRecord(db: PrismaClient, http: HttpClient, hook: PreparedWebhook) {
  const result = await sendWebhook(http, hook);
  const row = await db.webhookDelivery.create({ data: deliveryRow(hook, result), select: { id: true } });
  return getDelivery(db, hook.projectId, String(row.id));
}

/**
 * Sends a logged delivery again, now, to the project's current URL: the same `webhook-id` and
 * body (a receiver that already has it drops the copy), signed with the current secret and
 * time. Recorded as a new attempt; the original row stays as it was.
 */
export async function redeliver(db: PrismaClient, http: HttpClient, projectId: number, deliveryId: string) {
  const original = await getDelivery(db, projectId, deliveryId);
  const to = await projectHook(db, projectId);
  const target =
    original.messageId !== null
      ? { messageId: BigInt(original.messageId) }
      : original.submissionId !== null
        ? { submissionId: original.submissionId }
        : null;
  let body = original.requestBody;
  let webhookId = original.webhookId;
  // Rows logged before bodies were kept: the body is built again from the stored message.
  if ((body === null || !webhookId) && target) {
    const [rebuilt] = await prepareWebhooks(db, [{ projectId, target }]);
    if (typeof rebuilt === 'string') throw invalid(`This delivery cannot be sent again: ${rebuilt}.`);
    body = rebuilt.body;
    webhookId = rebuilt.webhookId;
  }
  if (body === null) throw invalid('This delivery kept no body to send again.');
  return sendAndRecord(db, http, {
    projectId,
    target,
    clientId: null,
    webhookId,
    event: (original.event || 'message.in') as WebhookEvent,
    body,
    ...to,
  });
}

/** The body of a test event (docs/webhooks.md, "Test events"). */
export interface TestEventPayload {
  type: 'test';
  project_id: number;
  message: string;
  created_at: number;
}

/** Sends a test event (`type: "test"`, its own `webhook-id` each time) and records it in the log. */
export async function sendTestEvent(db: PrismaClient, http: HttpClient, projectId: number, now = new Date()) {
  const to = await projectHook(db, projectId);
  const payload: TestEventPayload = {
    type: 'test',
    project_id: projectId,
    message: 'A test event from Blockbot: your webhook receives deliveries.',
    created_at: Math.floor(now.getTime() / 1000),
  };
  return sendAndRecord(db, http, {
    projectId,
    target: null,
    clientId: null,
    webhookId: `test_${projectId}_${now.getTime()}`,
    event: 'test',
    body: JSON.stringify(payload),
    ...to,
  });
}

/**
 * Deletes log rows older than WEBHOOK_LOG_DAYS, the oldest first, a bounded batch a statement
 * (rows are appended in time order, so the oldest ids are the oldest rows). Returns how many.
 */
export function pruneWebhookLog(db: PrismaClient): Promise<number> {
  return deleteInBatches((batch) => deleteOldWebhookDeliveries(db, WEBHOOK_LOG_DAYS, batch));
}
