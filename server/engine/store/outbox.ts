import { z } from 'zod';
import { BatchedStatement } from '@/server/db/batched-statement';
import { column, DB_NOW } from '@/server/db/columns';
import { PreparedStatement } from '@/server/db/raw-sql';
import { OUTBOX_CLAIM_SECONDS, outboxRow } from '../outbox-rows';

/**
 * What carrying out the outbox writes (outbox.ts, server/webhooks/webhook-jobs.ts): sends'
 * answers, held sends, claims, done and pruned rows.
 */

/** A send's answer, recorded on its message and its outbox row together. */
export interface SendOutcome {
  outboxId: string;
  messageId: string;
  delivered: boolean;
  error: string | null;
  externalId: string | null;
}

/**
 * Records sends' answers, those of sends answered at once in one statement (BatchedStatement).
 * Rows are found by `id = ANY (…)`, an index condition on the primary key: a plan kept from a
 * connection's first runs on a nearly empty table would otherwise read the whole table for
 * each batch once it has grown (a hash join over a sequential scan).
 */
export const recordSends = new BatchedStatement<SendOutcome>(
  new PreparedStatement(
    `WITH sent AS (
       SELECT * FROM jsonb_to_recordset($rows::jsonb)
         AS s ("outboxId" bigint, "messageId" bigint, delivered boolean, error text, "externalId" text)
     ), message AS (
       UPDATE "Message" m SET delivered = s.delivered, error = s.error,
         status = (CASE WHEN s.delivered THEN 'sent' ELSE 'failed' END)::"DeliveryStatus",
         "externalId" = s."externalId"
       FROM sent s WHERE m.id = ANY (ARRAY(SELECT "messageId" FROM sent)) AND m.id = s."messageId"
     )
     UPDATE "Outbox" o SET state = 'done', "doneAt" = ${DB_NOW}, error = s.error
     FROM sent s WHERE o.id = ANY (ARRAY(SELECT "outboxId" FROM sent)) AND o.id = s."outboxId"`,
  ),
);

/** A message's first `count` parts were answered: a send taken over after a crash starts after them. */
export const recordPartsSent = new PreparedStatement(
  `UPDATE "Outbox" SET "partsSent" = $count::int WHERE id = $outboxId::bigint`,
);

/** Rows still being carried out stay their holder's (a long send: retries, a 429's pause). */
export const extendClaims = new PreparedStatement(
  `UPDATE "Outbox" SET "claimedUntil" = ${DB_NOW} + make_interval(secs => ${OUTBOX_CLAIM_SECONDS})
   WHERE id = ANY ($ids::bigint[]) AND state = 'pending'`,
);

/**
 * Held sends (DeliveryResult.retryAt): a send row in state `held` waits for its claim's end, the
 * time it is tried again, its message queued with the reason (`error`). The sweeper takes it then
 * (pending again, its error kept until the send is answered). The rows given are held until
 * `$until`, those of a client's later messages with them.
 */
export const holdSends = new PreparedStatement(
  `WITH held AS (
     UPDATE "Outbox" SET state = 'held', "claimedUntil" = $until::timestamp(3), error = $error
     WHERE id = ANY ($ids::bigint[]) AND state = 'pending'
     RETURNING "messageId"
   )
   UPDATE "Message" SET delivered = false, error = $error, status = 'queued'
   WHERE id = ANY (ARRAY(SELECT "messageId" FROM held))`,
);

/**
 * Holds the given rows of a client behind its earlier held sends, those waiting and those being
 * tried again (until the latest of those is tried again: the sweeper then takes them all, in
 * order); the reason of each it held: none when the client has no held send before them.
 */
export const holdBehindHeld = new PreparedStatement(
  `WITH ahead AS (
     SELECT max("claimedUntil") AS "claimedUntil", (array_agg(error ORDER BY id DESC))[1] AS error
     FROM "Outbox"
     WHERE "clientId" = $clientId::int AND kind = 'send' AND state IN ('pending', 'held')
       AND error IS NOT NULL AND id < $firstId::bigint
     HAVING count(*) > 0
   ), held AS (
     UPDATE "Outbox" o SET state = 'held', "claimedUntil" = greatest(ahead."claimedUntil", ${DB_NOW}),
       error = ahead.error
     FROM ahead WHERE o.id = ANY ($ids::bigint[]) AND o.state = 'pending'
     RETURNING o."messageId", o.error
   ), message AS (
     UPDATE "Message" m SET delivered = false, error = held.error, status = 'queued'
     FROM held WHERE m.id = ANY (ARRAY(SELECT "messageId" FROM held)) AND m.id = held."messageId"
   )
   SELECT error FROM held`,
  z.object({ error: column.text }),
);

/**
 * Makes the waiting held sends of a channel's clients (of one group: a bot, a number) due now:
 * the messenger is back. Those being tried again are left to their try. Due is no time at all:
 * now() stored to the column's milliseconds is rounded, up half the time, and a sweep within
 * that half millisecond found the row not due yet (and none came after it in a test).
 */
export const releaseHeld = new PreparedStatement(
  `UPDATE "Outbox" o SET "claimedUntil" = NULL
   FROM "Client" c
   WHERE o."clientId" = c.id AND o.kind = 'send' AND o.state = 'held'
     AND c."projectId" = $projectId::int AND c."clientType" = $clientType::int
     AND ($groupId::text IS NULL OR c."groupId" = $groupId::text)
   RETURNING o.id::text AS id`,
  z.object({ id: column.text }),
);

export const markQueued = new PreparedStatement(
  `UPDATE "Outbox" SET state = 'queued' WHERE id = ANY ($ids::bigint[]) AND state = 'pending'`,
);

export const finishFailed = new PreparedStatement(
  `UPDATE "Outbox" SET state = 'done', "doneAt" = ${DB_NOW}, error = $error WHERE id = $id::bigint`,
);

export const recordOutcome = new PreparedStatement(
  `UPDATE "Message" SET delivered = false, error = $error, status = 'failed' WHERE id = $id::bigint`,
);

export const claimExpired = new PreparedStatement(
  `UPDATE "Outbox" SET "claimedUntil" = ${DB_NOW} + make_interval(secs => ${OUTBOX_CLAIM_SECONDS}),
     attempts = attempts + 1, state = 'pending'
   WHERE id IN (
     SELECT id FROM "Outbox"
     WHERE state IN ('pending', 'held') AND ("claimedUntil" IS NULL OR "claimedUntil" < ${DB_NOW})
     ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED
   )
   RETURNING id::text AS id, "projectId", kind, "messageId"::text AS "messageId", payload, "partsSent",
     attempts, "createdAt"`,
  z
    .looseObject({ projectId: column.int })
    .transform((raw) => ({ projectId: raw.projectId, row: outboxRow.parse(raw) })),
);

/**
 * Deletes up to `batch` done rows finished more than `keepDays` ago, the oldest first (ids are
 * in the order rows were written); how many it deleted.
 */
export const pruneDoneOutbox = new PreparedStatement(
  `DELETE FROM "Outbox" WHERE id IN (
     SELECT id FROM (SELECT id, state, "doneAt" FROM "Outbox" ORDER BY id LIMIT $batch::int) oldest
     WHERE state = 'done' AND "doneAt" < ${DB_NOW} - make_interval(days => $keepDays::int)
   )
   RETURNING id::text AS id`,
  z.object({ id: column.text }),
);

export const finishOutbox = new PreparedStatement(
  `UPDATE "Outbox" SET state = 'done', "doneAt" = now() AT TIME ZONE 'UTC', error = $error
   WHERE id = $id::bigint AND state <> 'done'`,
);
