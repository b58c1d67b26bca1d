import { z } from 'zod';
import { column, DB_NOW } from '@/server/db/columns';
import { PreparedStatement } from '@/server/db/raw-sql';
import { OUTBOX_CLAIM_SECONDS } from '@/server/engine/outbox-rows';

/**
 * A messenger's report on a sent message (server/channels/delivery-status.ts): the client's
 * newest outgoing message with this messenger id (found through the history index, newest
 * first: reports are about recent messages) moves to the status, never back; and, when it
 * moved and the project has a webhook, an outbox row for the report's delivery, held by this
 * process. No row when nothing moved.
 */
export const moveDeliveryStatus = new PreparedStatement(
  `WITH target AS (
     SELECT id FROM "Message"
     WHERE "projectId" = $projectId::int AND "clientId" = $clientId::int
       AND "externalId" = $externalId::text AND direction = 'out'
     ORDER BY id DESC LIMIT 1
   ), moved AS (
     UPDATE "Message" m SET status = $status::"DeliveryStatus",
       delivered = $status::text <> 'failed',
       error = CASE WHEN $status::text = 'failed' THEN $error::text ELSE m.error END
     FROM target WHERE m.id = target.id AND m.status < $status::"DeliveryStatus"
     RETURNING m.id, m."projectId", m."clientId"
   ), outbox AS (
     INSERT INTO "Outbox" ("projectId", "clientId", kind, "messageId", payload, "claimedUntil", "createdAt")
     SELECT moved."projectId", moved."clientId", 'webhook', moved.id, jsonb_build_object('status', $status::text),
       ${DB_NOW} + make_interval(secs => ${OUTBOX_CLAIM_SECONDS}), ${DB_NOW}
     FROM moved JOIN "Project" p ON p.id = moved."projectId" AND p."webhookUrl" IS NOT NULL
     RETURNING id
   )
   SELECT moved.id::text AS "messageId", outbox.id::text AS "outboxId"
   FROM moved LEFT JOIN outbox ON true`,
  z.object({ messageId: column.bigint, outboxId: column.bigint.nullable() }),
);
