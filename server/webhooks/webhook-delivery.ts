import { Webhook } from 'standardwebhooks';
import { getEnv } from '@/server/config/env';
import type { PrismaClient } from '@/server/db/client-type';
import type { HttpClient } from '@/server/engine/block-request';
import type { WebhookTarget } from '@/server/engine/outbox-rows';
import { metrics } from '@/server/metrics/metrics';
import { buildStatusPayload, buildSubmissionPayload, buildWebhookPayload } from './webhook-payload';

/** How much of a receiver's answer the log keeps (characters). */
export const WEBHOOK_RESPONSE_KEPT = 2048;

/** The events a delivery carries (the log's `event` column; docs/webhooks.md). */
export type WebhookEvent = 'message.in' | 'message.out' | 'message.status' | 'submission' | 'test';

/** A delivery ready to send: where, signed with what, and its body. */
export interface PreparedWebhook {
  projectId: number;
  /** The stored message or submission; null for a test event. */
  target: WebhookTarget | null;
  /** The client whose event it is: deliveries of one client go out one after another. */
  clientId: number | null;
  webhookId: string;
  event: WebhookEvent;
  url: string;
  secret: string;
  body: string;
}

/** What came back: the status (null: no answer), the start of the answer, the error. */
export interface WebhookResult {
  status: number | null;
  responseBody: string | null;
  durationMs: number;
  error: string | null;
}

/**
 * The deliveries of many targets, read in a few statements whatever their number (the
 * projects, then the messages and the submissions with their clients): each prepared, or why
 * there is nothing to send (no webhook URL, the message is gone).
 */
export async function prepareWebhooks(
  db: PrismaClient,
  items: { projectId: number; target: WebhookTarget }[],
): Promise<(PreparedWebhook | string)[]> {
  const messageIds = items.flatMap(({ target }) => ('messageId' in target ? [target.messageId] : []));
  const submissionIds = items.flatMap(({ target }) =>
    'submissionId' in target ? [target.submissionId] : [],
  );
  const [projects, messages, submissions] = await Promise.all([
    db.project.findMany({
      where: { id: { in: [...new Set(items.map((i) => i.projectId))] } },
      select: { id: true, webhookUrl: true, webhookSecret: true },
    }),
    messageIds.length
      ? db.message.findMany({ where: { id: { in: messageIds } }, include: { client: true } })
      : [],
    submissionIds.length
      ? db.submission.findMany({ where: { id: { in: submissionIds } }, include: { client: true } })
      : [],
  ]);
  const projectById = new Map(projects.map((p) => [p.id, p]));
  const messageById = new Map(messages.map((m) => [m.id, m]));
  const submissionById = new Map(submissions.map((s) => [s.id, s]));
  return items.map(({ projectId, target }) => {
    const project = projectById.get(projectId);
    if (!project?.webhookUrl) return 'the project has no webhook URL';
    const to = { projectId, target, url: project.webhookUrl, secret: project.webhookSecret };
    if ('submissionId' in target) {
      const submission = submissionById.get(target.submissionId);
      if (submission?.projectId !== projectId) return 'the submission no longer exists';
      return {
        ...to,
        clientId: submission.clientId,
        webhookId: `sub_${projectId}_${submission.id}`,
        event: 'submission',
        body: JSON.stringify(buildSubmissionPayload(submission, submission.client)),
      };
    }
    const message = messageById.get(target.messageId);
    if (message?.projectId !== projectId) return 'the message no longer exists';
    if (target.status)
      return {
        ...to,
        clientId: message.clientId,
        webhookId: `msg_${projectId}_${message.id}_${target.status}`,
        event: 'message.status',
        body: JSON.stringify(buildStatusPayload(message, message.client, target.status)),
      };
    return {
      ...to,
      clientId: message.clientId,
      webhookId: `msg_${projectId}_${message.id}`,
      event: message.direction === 'in' ? 'message.in' : 'message.out',
      body: JSON.stringify(buildWebhookPayload(message, message.client)),
    };
  });
}

/**
 * Sends one delivery, once: signed with Standard Webhooks headers (its `webhook-id` the same on
 * every attempt), no redirects followed. Never throws: no answer is an error too.
 */
export async function sendWebhook(
  http: HttpClient,
  hook: PreparedWebhook,
  now: () => Date = () => new Date(),
  signal?: AbortSignal,
): Promise<WebhookResult> {
  // One reading of the clock for the signature and the header: two could straddle a second.
  const sentAt = now();
  const signature = new Webhook(hook.secret).sign(hook.webhookId, sentAt, hook.body);
  const started = Date.now();
  try {
    const response = await http(hook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': hook.webhookId,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signature,
        'user-agent': 'Blockbot-Webhook/1',
      },
      body: hook.body,
      // A receiver gets this long; it never holds up the bot, as deliveries are jobs of their own.
      timeoutMs: getEnv().BLOCKBOT_WEBHOOK_TIMEOUT_MS,
      connectTimeoutMs: getEnv().BLOCKBOT_WEBHOOK_TIMEOUT_MS,
      maxBytes: 64 * 1024,
      followRedirects: 0,
      ...(signal && { signal }),
    });
    metrics().webhookDeliveries.inc({ outcome: response.status >= 300 ? 'failed' : 'delivered' });
    return {
      status: response.status,
      responseBody: response.body.slice(0, WEBHOOK_RESPONSE_KEPT),
      durationMs: Date.now() - started,
      error: response.status >= 300 ? `the receiver answered ${response.status}` : null,
    };
  } catch (e) {
    metrics().webhookDeliveries.inc({ outcome: 'failed' });
    return {
      status: null,
      responseBody: null,
      durationMs: Date.now() - started,
      error: (e as Error).message,
    };
  }
}

/** The log's row of one attempt. */
export function deliveryRow(hook: PreparedWebhook, result: WebhookResult) {
  return {
    projectId: hook.projectId,
    ...(hook.target ?? {}),
    url: hook.url,
    webhookId: hook.webhookId,
    event: hook.event,
    requestBody: hook.body,
    status: result.status,
    responseBody: result.responseBody,
    durationMs: result.durationMs,
    error: result.error,
  };
}

/**
 * Delivers one stored message or submission to the project's webhook, once, the attempt
 * recorded whatever happens. Returns the error, null when delivered. The worker delivers in
 * batches (webhook-dispatcher.ts) through the same steps.
 */
export async function deliverWebhook(
  db: PrismaClient,
  http: HttpClient,
  projectId: number,
  target: WebhookTarget,
  now: () => Date = () => new Date(),
): Promise<string | null> {
  const [hook] = await prepareWebhooks(db, [{ projectId, target }]);
  if (typeof hook === 'string') return hook;
  const result = await sendWebhook(http, hook, now);
  await db.webhookDelivery.create({ data: deliveryRow(hook, result) });
  return result.error;
}
