/**
 * bot-semantics §7: the body POSTed to the project's webhook for every received or sent message,
 * as receivers written for the commercial platform read it. Documented for integrators in the
 * OpenAPI document's `webhooks` (openapi.ts) and in docs/migrating.md: keep them in step.
 */
export interface WebhookPayload {
  id: number;
  client: {
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
  };
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
  client: {
    id: number;
    platformId: string;
    clientType: number;
    name: string;
    avatar: string;
    createdAt: Date;
    tag: string;
    groupId: string;
    customAnswer: string | null;
  },
): WebhookPayload {
  return {
    id: Number(message.id),
    client: {
      id: client.id,
      recepient: client.platformId,
      client_type: client.clientType,
      name: client.name,
      avatar: client.avatar,
      created_at: Math.floor(client.createdAt.getTime() / 1000),
      tag: client.tag,
      group: client.groupId,
      ...(client.customAnswer === null ? {} : { custom_answer: client.customAnswer }),
    },
    message: message.text,
    attachments: message.attachments,
    message_id: message.blockId,
    project_id: message.projectId,
    is_input: message.direction === 'in' ? 1 : 0,
    delivered: message.delivered ? 1 : 0,
    error_message: message.error,
  };
}
