import { Webhook } from 'standardwebhooks';
import { getEnv } from '@/server/config/env';
import type { PrismaClient } from '@/server/db/client-type';
import type { HttpClient } from '@/server/engine/block-request';
import type { WebhookTarget } from '@/server/engine/outbox-rows';
import { buildSubmissionPayload, buildWebhookPayload } from './webhook-payload';

/**
 * Delivers one stored message or submission to the project's webhook: once, signed with
 * Standard Webhooks headers (its `webhook-id` is the message's or the submission's, the same on
 * every attempt), no redirects followed, the attempt recorded whatever happens. Returns the
 * error, null when delivered.
 */
export async function deliverWebhook(
  db: PrismaClient,
  http: HttpClient,
  projectId: number,
  target: WebhookTarget,
  now: () => Date = () => new Date(),
) {
  const project = await db.project.findUnique({
    where: { id: projectId },
    select: { webhookUrl: true, webhookSecret: true },
  });
  if (!project?.webhookUrl) return 'the project has no webhook URL';
  const hook = await webhookBody(db, projectId, target);
  if (typeof hook === 'string') return hook;
  const body = JSON.stringify(hook.payload);
  // One reading of the clock for the signature and the header: two could straddle a second.
  const sentAt = now();
  const signature = new Webhook(project.webhookSecret).sign(hook.id, sentAt, body);
  const started = Date.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    const response = await http(project.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': hook.id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signature,
        'user-agent': 'Blockbot-Webhook/1',
      },
      body,
      // A receiver gets this long; it never holds up the bot, as deliveries are jobs of their own.
      timeoutMs: getEnv().BLOCKBOT_WEBHOOK_TIMEOUT_MS,
      connectTimeoutMs: getEnv().BLOCKBOT_WEBHOOK_TIMEOUT_MS,
      maxBytes: 64 * 1024,
      followRedirects: 0,
    });
    status = response.status;
    if (response.status >= 300) error = `the receiver answered ${response.status}`;
  } catch (e) {
    error = (e as Error).message;
  }
  await db.webhookDelivery.create({
    data: { projectId, ...target, url: project.webhookUrl, status, durationMs: Date.now() - started, error },
  });
  return error;
}

/** The body and `webhook-id` of a target, or why there is none. */
async function webhookBody(db: PrismaClient, projectId: number, target: WebhookTarget) {
  if ('submissionId' in target) {
    const submission = await db.submission.findFirst({
      where: { id: target.submissionId, projectId },
      include: { client: true },
    });
    if (!submission) return 'the submission no longer exists';
    return {
      id: `sub_${projectId}_${submission.id}`,
      payload: buildSubmissionPayload(submission, submission.client),
    };
  }
  const message = await db.message.findFirst({
    where: { id: target.messageId, projectId },
    include: { client: true },
  });
  if (!message) return 'the message no longer exists';
  return { id: `msg_${projectId}_${message.id}`, payload: buildWebhookPayload(message, message.client) };
}
