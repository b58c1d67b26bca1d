import { z } from 'zod';
import { DELIVERY_STATUSES, type DeliveryStatus } from '@/lib/history-message';
import { column } from '@/server/db/columns';
import { engineEventSchema } from './events';

/**
 * How long the process that wrote an outbox row (or the sweeper that took it over) holds it
 * before the sweeper may take it: longer than a channel send or a follow-up event takes.
 */
export const OUTBOX_CLAIM_SECONDS = 15;

/**
 * What a webhook row delivers: a stored message, or the news of its delivery status (`status`:
 * a messenger's report), or a red or yellow block's submission.
 */
export type WebhookTarget = { messageId: bigint; status?: DeliveryStatus } | { submissionId: number };

const followUpPayload = z.object({ clientId: z.number().int(), event: engineEventSchema });
const submissionPayload = z.object({ submissionId: z.number().int() });
const statusPayload = z.object({ status: z.enum(DELIVERY_STATUSES) });

/**
 * An Outbox row as the statements that write or claim it return it (`id`, `kind`,
 * `messageId`, `payload`), checked and typed: a webhook row has a message id (with a
 * `{ status }` payload for a status report) or a `{ submissionId }` payload, a follow-up row
 * its event.
 */
export const outboxRow = z
  .object({
    id: column.bigint,
    kind: z.enum(['send', 'webhook', 'follow_up']),
    messageId: column.bigint.nullable(),
    payload: column.json(z.unknown()).nullable(),
    /** Claimed rows carry it (a send taken over after a crash); new rows have sent nothing. */
    partsSent: z.coerce.number().int().optional(),
    /** Claimed rows carry them: how often the row was taken, and when it was written (a held send's horizon). */
    attempts: z.coerce.number().int().optional(),
    createdAt: column.timestamp.optional(),
  })
  .transform((row) => {
    const { id } = row;
    if (row.kind === 'follow_up') {
      const { clientId, event } = followUpPayload.parse(row.payload);
      return { id, kind: 'follow_up' as const, clientId, event };
    }
    if (row.kind === 'send')
      return {
        id,
        kind: 'send' as const,
        messageId: row.messageId ?? 0n,
        partsSent: row.partsSent ?? 0,
        attempt: row.attempts ?? 0,
        queuedAt: row.createdAt,
      };
    const target: WebhookTarget =
      row.messageId === null
        ? submissionPayload.parse(row.payload)
        : { messageId: row.messageId, ...(row.payload ? statusPayload.parse(row.payload) : {}) };
    return { id, kind: 'webhook' as const, target };
  });

export type OutboxRow = z.infer<typeof outboxRow>;
