import type { EngineEvent } from './events';

/**
 * How long the process that wrote an outbox row (or the sweeper that took it over) holds it
 * before the sweeper may take it: longer than a channel send or a follow-up event takes.
 */
export const OUTBOX_CLAIM_SECONDS = 15;

/** What a webhook row delivers: a stored message, or a red or yellow block's submission. */
export type WebhookTarget = { messageId: bigint } | { submissionId: number };

export type OutboxRow =
  | { id: bigint; kind: 'send'; messageId: bigint }
  | { id: bigint; kind: 'webhook'; target: WebhookTarget }
  | { id: bigint; kind: 'follow_up'; clientId: number; event: EngineEvent };

export interface RawOutboxRow {
  id: string;
  kind: string;
  messageId: string | null;
  payload: unknown;
}

/** Rows as the database gives them (json text on some drivers), typed. */
export function outboxRows(raw: RawOutboxRow[] | string | null): OutboxRow[] {
  const rows: RawOutboxRow[] = typeof raw === 'string' ? JSON.parse(raw) : (raw ?? []);
  return rows.map((row) => {
    const id = BigInt(row.id);
    const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
    if (row.kind === 'follow_up') {
      const { clientId, event } = payload as { clientId: number; event: EngineEvent };
      return { id, kind: 'follow_up', clientId, event };
    }
    const messageId = BigInt(row.messageId ?? 0);
    if (row.kind === 'send') return { id, kind: 'send', messageId };
    // A webhook row has a message id or a `{ submissionId }` payload.
    const target =
      row.messageId === null
        ? { submissionId: (payload as { submissionId: number }).submissionId }
        : { messageId };
    return { id, kind: 'webhook', target };
  });
}
