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

/**
 * Whether a report that moved nothing may be early: no outgoing message of the client has its
 * messenger id yet, while one of the client's newest is still on its way (queued, with no
 * error: a held send has one). A messenger can report on a message (a call that failed at once)
 * before the send's answer, which gives the message its id, is recorded.
 */
export const reportMayBeEarly = new PreparedStatement(
  `SELECT 1 AS early
   WHERE NOT EXISTS (
       SELECT 1 FROM "Message"
       WHERE "projectId" = $projectId::int AND "clientId" = $clientId::int
         AND "externalId" = $externalId::text AND direction = 'out')
     AND EXISTS (
       SELECT 1 FROM (
         SELECT direction, status, error FROM "Message"
         WHERE "projectId" = $projectId::int AND "clientId" = $clientId::int
         ORDER BY id DESC LIMIT 20
       ) newest
       WHERE direction = 'out' AND status = 'queued' AND error IS NULL)`,
  z.object({ early: z.number() }),
);
