import type { EngineEvent } from './events';

/**
 * How long the process that wrote an outbox row (or the sweeper that took it over) holds it
 * before the sweeper may take it: longer than a channel send or a follow-up event takes.
 */
export const OUTBOX_CLAIM_SECONDS = 15;

export type OutboxRow =
  | { id: bigint; kind: 'send' | 'webhook'; messageId: bigint }
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
    const payload = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as {
      clientId: number;
      event: EngineEvent;
    } | null;
    if (row.kind === 'follow_up' && payload)
      return { id: BigInt(row.id), kind: 'follow_up', clientId: payload.clientId, event: payload.event };
    return {
      id: BigInt(row.id),
      kind: row.kind as 'send' | 'webhook',
      messageId: BigInt(row.messageId ?? 0),
    };
  });
}
