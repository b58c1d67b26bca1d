import type { DeliveryStatus } from '@/lib/history-message';
import { moveDeliveryStatus } from '@/server/db/delivery-status-sql';
import { plainSql } from '@/server/db/raw-sql';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { queueWebhooks } from '@/server/engine/outbox';
import { publishLive } from '@/server/live/live-events';

/** A messenger's report on a message it was sent: the id it gave it, and what became of it. */
export interface StatusReport {
  projectId: number;
  clientId: number;
  /** The messenger's id of the message (`DeliveryResult.externalId`). */
  externalId: string;
  status: Exclude<DeliveryStatus, 'queued'>;
  /** The messenger's error, for `failed`. */
  error?: string;
}

/**
 * Records a status a channel's messenger reported (a status callback): the message moves to
 * it (never back: reports come out of order, a `delivered` after `read` changes nothing), the
 * inbox and the client's profile show it at once, and the project's webhook gets it once
 * (`type: "message_status"`, after the message's own delivery). Answers whether it moved;
 * a report on a message this project never sent moves nothing.
 */
export async function recordDeliveryStatus(deps: EngineDeps, report: StatusReport): Promise<boolean> {
  const [moved] = await plainSql(deps.db).run(moveDeliveryStatus, {
    projectId: report.projectId,
    clientId: report.clientId,
    externalId: report.externalId,
    status: report.status,
    error: report.error ?? null,
  });
  if (!moved) return false;
  publishLive([
    {
      kind: 'message',
      projectId: report.projectId,
      clientId: report.clientId,
      messageId: String(moved.messageId),
    },
  ]);
  if (moved.outboxId !== null)
    await queueWebhooks(deps, report.projectId, [
      {
        id: moved.outboxId,
        kind: 'webhook',
        target: { messageId: moved.messageId, status: report.status },
      },
    ]);
  return true;
}
