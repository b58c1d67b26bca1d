import type { DeliveryStatus } from '@/lib/history-message';
import { moveDeliveryStatus, reportMayBeEarly } from '@/server/db/delivery-status-sql';
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
 * a report on a message this project never sent moves nothing. A report that may have come
 * before its send's answer was recorded (the message has no messenger id yet) throws: the
 * channel's update is then tried again by the inbound sweeper, and moves the message once the
 * send is recorded, instead of being lost.
 */
export async function recordDeliveryStatus(deps: EngineDeps, report: StatusReport): Promise<boolean> {
  const [moved] = await plainSql(deps.db).run(moveDeliveryStatus, {
    projectId: report.projectId,
    clientId: report.clientId,
    externalId: report.externalId,
    status: report.status,
    error: report.error ?? null,
  });
  if (!moved) {
    const [early] = await plainSql(deps.db).run(reportMayBeEarly, {
      projectId: report.projectId,
      clientId: report.clientId,
      externalId: report.externalId,
    });
    if (early)
      throw new Error(
        `the report on ${report.externalId} came while the client's message was still being sent: tried again once the send is recorded`,
      );
    return false;
  }
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
