import { z } from 'zod';
import type { Db } from './client-type';
import { column, DB_NOW } from './columns';
import { PreparedStatement } from './raw-sql';

/**
 * The worker's statements for a batch of webhook deliveries (webhook-dispatcher.ts): each takes
 * one JSON array parameter, so a batch of any size is one statement.
 */

/** Takes the outbox rows of fetched deliveries; a row already done (delivered) is not returned. */
export const takeOutboxes = new PreparedStatement(
  // 'pending' too: the job may start before its row is marked queued.
  `UPDATE "Outbox" SET attempts = attempts + 1, state = 'queued'
   WHERE id IN (SELECT value::bigint FROM jsonb_array_elements_text($ids::jsonb))
     AND state IN ('pending', 'queued')
   RETURNING id::text AS id`,
  z.object({ id: column.text }),
);

/**
 * Each client's webhook deliveries still to do that are older than the given row (per client,
 * the newest of its jobs in hand): whichever worker holds them, a client's deliveries go out in
 * their rows' order (webhook-dispatcher.ts).
 */
export const openEarlierDeliveries = new PreparedStatement(
  // One look-up per client in the partial index of open webhook rows (OFFSET 0 keeps the
  // subquery per client: joined whole, the planner scanned every open row of every client).
  `SELECT o.id::text AS id, v."clientId"
   FROM jsonb_to_recordset($rows::jsonb) AS v ("clientId" int, id bigint)
   CROSS JOIN LATERAL (
     SELECT id FROM "Outbox"
     WHERE "clientId" = v."clientId" AND id < v.id AND kind = 'webhook' AND state IN ('pending', 'queued')
     OFFSET 0
   ) o`,
  z.object({ id: column.text, clientId: column.int }),
);

/** Ends the outbox rows of deliveries that got an answer (or have nothing to send), with the error. */
export const finishOutboxes = new PreparedStatement(
  `UPDATE "Outbox" o SET state = 'done', "doneAt" = ${DB_NOW}, error = v.error
   FROM jsonb_to_recordset($rows::jsonb) AS v (id bigint, error text)
   WHERE o.id = v.id AND o.state <> 'done'`,
);

/** The log's rows of a batch of attempts. */
export const insertDeliveries = new PreparedStatement(
  `INSERT INTO "WebhookDelivery" ("projectId", "messageId", "submissionId", url, "webhookId", event,
     "requestBody", status, "responseBody", "durationMs", error, "createdAt")
   SELECT v."projectId", v."messageId", v."submissionId", v.url, v."webhookId", v.event,
     v."requestBody", v.status, v."responseBody", v."durationMs", v.error, ${DB_NOW}
   FROM jsonb_to_recordset($rows::jsonb) AS v ("projectId" int, "messageId" bigint, "submissionId" int,
     url text, "webhookId" text, event text, "requestBody" text, status int, "responseBody" text,
     "durationMs" int, error text)`,
);

/**
 * Puts fetched jobs back, claimable again at the same attempt (as pg-boss's own restore, which
 * its public API does not offer): jobs held unsent too long, or when the worker stops.
 */
export const putBackJobs = new PreparedStatement(
  `UPDATE pgboss.job SET state = 'created', started_on = NULL, heartbeat_on = NULL, upsert_by_key = NULL
   WHERE name = $queue AND id IN (SELECT value::uuid FROM jsonb_array_elements_text($ids::jsonb))
     AND state = 'active'`,
);

/**
 * Deletes up to `batch` log rows older than `days`, the oldest first (rows are appended in time
 * order, so the oldest ids are the oldest rows); how many it deleted.
 */
export function deleteOldWebhookDeliveries(db: Db, days: number, batch: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM "WebhookDelivery" WHERE id IN (
      SELECT id FROM (SELECT id, "createdAt" FROM "WebhookDelivery" ORDER BY id LIMIT ${batch}) oldest
      WHERE "createdAt" < (now() AT TIME ZONE 'UTC') - make_interval(days => ${days}))`;
}
