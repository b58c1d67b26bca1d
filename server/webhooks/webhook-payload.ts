import type { DeliveryStatus } from '@/lib/history-message';

/**
 * bot-semantics §7: the bodies POSTed to the project's webhook: one for every received or sent
 * message, as receivers written for the commercial platform read it, and one for every
 * submission of a red or yellow block (`type: "submission"`), and one for every delivery status a
 * messenger reports on a sent message (`type: "message_status"`). Documented for integrators in the
 * OpenAPI document's `webhooks` (openapi.ts) and in docs/migrating.md: keep them in step.
 */
export interface WebhookClient {
  id: number;
  /** Spelled so for compatibility with the established platform. */
  recepient: string;
  client_type: number;
  name: string;
  avatar: string;
  created_at: number;
  tag: string;
  group: string;
  /** The reply of the client's last block request, when one ran. */
  custom_answer?: string;
}

interface ClientRow {
  id: number;
  platformId: string;
  clientType: number;
  name: string;
  avatar: string;
  createdAt: Date;
  tag: string;
  groupId: string;
  customAnswer: string | null;
}

export interface WebhookPayload {
  id: number;
  client: WebhookClient;
  message: string;
  attachments: unknown;
  message_id: number | null;
  project_id: number;
  is_input: 0 | 1;
  delivered: 0 | 1;
  error_message: string | null;
}

export function buildWebhookPayload(
  message: {
    id: bigint;
    projectId: number;
    direction: 'in' | 'out';
    text: string;
    attachments: unknown;
    blockId: number | null;
    delivered: boolean;
    error: string | null;
  },
  client: ClientRow,
): WebhookPayload {
  return {
    id: Number(message.id),
    client: clientPayload(client),
    message: message.text,
    attachments: message.attachments,
    message_id: message.blockId,
    project_id: message.projectId,
    is_input: message.direction === 'in' ? 1 : 0,
    delivered: message.delivered ? 1 : 0,
    error_message: message.error,
  };
}

/**
 * A messenger's report on a sent message (`type: "message_status"`): delivered to the
 * client's device, read, or failed with the messenger's error. The message itself was posted
 * when it was sent (its payload's `id` is this one's `id`); each status is posted once.
 */
export interface StatusWebhookPayload {
  type: 'message_status';
  id: number;
  client: WebhookClient;
  status: DeliveryStatus;
  /** 1 unless the status is failed. */
  delivered: 0 | 1;
  error_message: string | null;
  message_id: number | null;
  project_id: number;
}

export function buildStatusPayload(
  message: { id: bigint; projectId: number; blockId: number | null; error: string | null },
  client: ClientRow,
  status: DeliveryStatus,
): StatusWebhookPayload {
  return {
    type: 'message_status',
    id: Number(message.id),
    client: clientPayload(client),
    status,
    delivered: status === 'failed' ? 0 : 1,
    error_message: status === 'failed' ? message.error : null,
    message_id: message.blockId,
    project_id: message.projectId,
  };
}

/** A red (close_deal) or yellow (data_transfer) block's submission of the deal's variables. */
export interface SubmissionWebhookPayload {
  type: 'submission';
  id: number;
  client: WebhookClient;
  submission: {
    id: number;
    block_id: number;
    deal_id: number | null;
    /** Yellow blocks keep the deal open (true); red ones close it (false). */
    kept: boolean;
    variables: Record<string, string>;
    created_at: number;
  };
  project_id: number;
}

export function buildSubmissionPayload(
  submission: {
    id: number;
    projectId: number;
    blockId: number;
    dealId: number | null;
    kept: boolean;
    variables: unknown;
    createdAt: Date;
  },
  client: ClientRow,
): SubmissionWebhookPayload {
  return {
    type: 'submission',
    id: submission.id,
    client: clientPayload(client),
    submission: {
      id: submission.id,
      block_id: submission.blockId,
      deal_id: submission.dealId,
      kept: submission.kept,
      variables: submission.variables as Record<string, string>,
      created_at: unixSeconds(submission.createdAt),
    },
    project_id: submission.projectId,
  };
}

function clientPayload(client: ClientRow): WebhookClient {
  return {
    id: client.id,
    recepient: client.platformId,
    client_type: client.clientType,
    name: client.name,
    avatar: client.avatar,
    created_at: unixSeconds(client.createdAt),
    tag: client.tag,
    group: client.groupId,
    ...(client.customAnswer === null ? {} : { custom_answer: client.customAnswer }),
  };
}

const unixSeconds = (at: Date) => Math.floor(at.getTime() / 1000);
