import { Webhook } from 'standardwebhooks';
import type { PrismaClient } from '@/server/db/client-type';
import type { HttpClient } from '@/server/engine/block-request';
import { buildWebhookPayload } from './webhook-payload';

/** A receiver gets this long; it never holds up the bot, as deliveries are jobs of their own. */
export const WEBHOOK_TIMEOUT_MS = 5000;

/**
 * Delivers one stored message to the project's webhook: once, signed with Standard Webhooks
 * headers (its `webhook-id` is the message's, the same on every attempt), no redirects
 * followed, the attempt recorded whatever happens. Returns the error, null when delivered.
 */
export async function deliverWebhook(
  db: PrismaClient,
  http: HttpClient,
  projectId: number,
  messageId: bigint,
  now: () => Date = () => new Date(),
) {
  const project = await db.project.findUnique({
    where: { id: projectId },
    select: { webhookUrl: true, webhookSecret: true },
  });
  if (!project?.webhookUrl) return 'the project has no webhook URL';
  const message = await db.message.findFirst({
    where: { id: messageId, projectId },
    include: { client: true },
  });
  if (!message) return 'the message no longer exists';
  const body = JSON.stringify(buildWebhookPayload(message, message.client));
  const id = `msg_${projectId}_${messageId}`;
  // One reading of the clock for the signature and the header: two could straddle a second.
  const sentAt = now();
  const signature = new Webhook(project.webhookSecret).sign(id, sentAt, body);
  const started = Date.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    const response = await http(project.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signature,
        'user-agent': 'Blockbot-Webhook/1',
      },
      body,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      connectTimeoutMs: WEBHOOK_TIMEOUT_MS,
      maxBytes: 64 * 1024,
      followRedirects: 0,
    });
    status = response.status;
    if (response.status >= 300) error = `the receiver answered ${response.status}`;
  } catch (e) {
    error = (e as Error).message;
  }
  await db.webhookDelivery.create({
    data: { projectId, messageId, url: project.webhookUrl, status, durationMs: Date.now() - started, error },
  });
  return error;
}
