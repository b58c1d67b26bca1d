import { z } from 'zod';
import { valueKey } from '@/server/contacts/variable-limits';
import type { VariableWrites } from '@/server/contacts/variable-store';
import { BatchedStatement } from '@/server/db/batched-statement';
import { INSERT_HELD_SQL, insertedRow } from '@/server/db/channel-update-sql';
import {
  CLIENT_WHERE,
  LOCKED_CLIENT_COLUMNS,
  lockedClientRow,
  scopedVariablesColumns,
  scopedVariablesRow,
} from '@/server/db/client-sql';
import { column, DB_NOW } from '@/server/db/columns';
import { Plan } from '@/server/db/generated/enums';
import { PreparedStatement, prefixedSql } from '@/server/db/raw-sql';
import { OUTBOX_CLAIM_SECONDS, outboxRow } from './outbox-rows';

/**
 * The engine's SQL, in one place: the statements of an event's two round trips (claim and
 * load; the final write), the lease's other statements and the outbox's. Each declares the
 * schema of its rows, so the modules that run them (client-lease, event-state, event-writes,
 * outbox, server/webhooks/webhook-jobs) get typed rows and hold no SQL text.
 */

// The lease (client-lease.ts).

export const exists = new PreparedStatement(
  `SELECT 1 FROM "Client" c WHERE c.id = $clientId::int AND c."projectId" = $projectId::int`,
);

/** A message a channel sent again (its key is stored already): its event is not run twice. */
export const messageKeyStored = new PreparedStatement(
  `SELECT 1 FROM "Message" WHERE "dedupeKey" = $key::text LIMIT 1`,
);

export const release = new PreparedStatement(
  `UPDATE "Client" SET "leaseToken" = NULL, "leaseUntil" = NULL WHERE id = $clientId AND "leaseToken" = $token`,
);

// What an event starts from (event-state.ts).
/**
 * Project p's settings (its published version, or for the simulator its draft's revision, keys
 * the compiled bot), the deal and the variables.
 */
export const stateColumns = (ids: { project: string; client: string; deal: string; variablesDeal: string }) =>
  `p.plan::text AS plan, p."timeZone", p."schemaRevision", p."publishedVersion",
   p."webhookUrl" IS NOT NULL AS "hasWebhook",
   ${ids.deal} AS "dealId", ${scopedVariablesColumns(ids.variablesDeal, ids.client, ids.project)}`;

/** The columns of `stateColumns`, typed. */
export const stateRow = scopedVariablesRow.extend({
  plan: z.enum(Plan),
  timeZone: column.text,
  schemaRevision: column.int,
  publishedVersion: column.int,
  hasWebhook: column.bool,
  /** Null when the client has no open deal yet. */
  dealId: column.int.nullable(),
});
export type StateRow = z.infer<typeof stateRow>;

/**
 * The claim's CTEs: `claimed` sets the client's lease when it is free (or kept for this token)
 * and `when` holds; `claim` reads, with it, what the event starts from. `fresh` is false when
 * the statement's snapshot still showed another event's lease (that event released it meanwhile).
 * The token may be the one the previous event of this process kept the lease under for this event.
 */
const claimCtes = (where: string, when = 'true') =>
  `claimed AS (
     UPDATE "Client" c SET "leaseToken" = $token, "leaseUntil" = ${DB_NOW} + make_interval(secs => $seconds)
     WHERE ${where} AND (c."leaseUntil" IS NULL OR c."leaseUntil" < ${DB_NOW} OR c."leaseToken" = $token)
       AND ${when}
     RETURNING c.*
   ), claim AS (
     SELECT ${LOCKED_CLIENT_COLUMNS},
       coalesce((SELECT "leaseToken" FROM "Client" WHERE id = c.id) = $token, true) AS fresh,
       ${stateColumns({ project: 'c."projectId"', client: 'c.id', deal: 'd.id', variablesDeal: 'd.id' })}
     FROM claimed c
     JOIN "Project" p ON p.id = c."projectId"
     LEFT JOIN LATERAL (
       SELECT id FROM "Deal" WHERE "projectId" = c."projectId" AND "clientId" = c.id AND "closedAt" IS NULL
       ORDER BY id DESC LIMIT 1
     ) d ON true
   )`;

/** A claimed client with the state its event starts from (`dealId` null when it has no open deal yet). */
export const claimRow = lockedClientRow.extend(stateRow.shape).extend({ fresh: column.bool.nullable() });
export type ClaimRow = z.infer<typeof claimRow>;

// The claim commits without waiting for its WAL to reach the disk (synchronous_commit off for
// its own transaction): a claim lost in a database crash only makes the event's final write,
// which checks the token and commits synchronously, fail cleanly.
const claimAndLoadWhere = (where: string) =>
  new PreparedStatement(
    `WITH no_flush AS (
       SELECT set_config('synchronous_commit', 'off', true)
     ), ${claimCtes(where)}
     SELECT claim.* FROM claim CROSS JOIN no_flush`,
    claimRow,
  );
export const claimAndLoadStatements = {
  id: claimAndLoadWhere(CLIENT_WHERE.id),
  ref: claimAndLoadWhere(CLIENT_WHERE.ref),
};

/**
 * A channel's one update stored (server/db/channel-update-sql.ts, insertHeld) and, when it was
 * taken for processing as it was stored, its client claimed by identity for the update's event,
 * in one statement: the update's row as JSON in `held`, beside the claim's columns (null when
 * nothing was claimed: the update was a repeat or waits behind another, the client is new, or
 * another event holds it). The claim's parameters are prefixed `lease_`. It commits synchronously,
 * as storing the update must.
 */
export const storeHeldAndClaim = new PreparedStatement(
  `WITH ${INSERT_HELD_SQL.ctes}, held AS (${INSERT_HELD_SQL.select}),
   ${prefixedSql(claimCtes(CLIENT_WHERE.ref, INSERT_HELD_SQL.taken), 'lease_')}
   SELECT to_json(h) AS held, claim.* FROM held h LEFT JOIN claim ON true`,
  z.union([
    claimRow.extend({ held: column.json(insertedRow) }),
    z.object({ held: column.json(insertedRow), id: z.null() }).transform(({ held }) => ({ held })),
  ]),
);

const createdClientRow = lockedClientRow.extend(stateRow.shape);
/** A client created by its first event, with the state that event starts from. */
export type CreatedClient = z.infer<typeof createdClientRow>;

/**
 * A first contact: the client created held by the event, with its open deal, and the state the
 * event starts from, in one statement. No row when the identity exists by then (another event
 * created it this instant). It commits without waiting for its WAL to reach the disk, as the
 * claim does: the event's final write, which commits synchronously, comes after it in the WAL,
 * and a client lost in a database crash before that write is created again by the retry.
 */
export const createLeased = new PreparedStatement(
  `WITH no_flush AS (
     SELECT set_config('synchronous_commit', 'off', true)
   ), created AS (
     INSERT INTO "Client" AS c ("projectId", "clientType", "groupId", "platformId", name, avatar, tag,
       "createdAt", "updatedAt", "leaseToken", "leaseUntil")
     SELECT $projectId, $clientType, $groupId, $platformId, $name, $avatar, $tag, $at, $at,
       $token, ${DB_NOW} + make_interval(secs => $seconds)
     FROM no_flush
     ON CONFLICT ("projectId", "clientType", "groupId", "platformId") DO NOTHING
     RETURNING ${LOCKED_CLIENT_COLUMNS}
   ), new_deal AS (
     INSERT INTO "Deal" ("projectId", "clientId", "createdAt", "updatedAt")
     SELECT c."projectId", c.id, $at::timestamp(3), $at::timestamp(3) FROM created c
     RETURNING id
   )
   SELECT c.*, ${stateColumns({
     project: 'c."projectId"',
     client: 'c.id',
     deal: '(SELECT id FROM new_deal)',
     // A new deal and a new client have no variables yet.
     variablesDeal: 'NULL::int',
   })}
   FROM created c JOIN "Project" p ON p.id = c."projectId"`,
  createdClientRow,
);

export const loadState = new PreparedStatement(
  `WITH open_deal AS (
     SELECT id FROM "Deal" WHERE "projectId" = $projectId AND "clientId" = $clientId AND "closedAt" IS NULL
     ORDER BY id DESC LIMIT 1
   ), new_deal AS (
     INSERT INTO "Deal" ("projectId", "clientId", "createdAt", "updatedAt")
     SELECT $projectId::int, $clientId::int, $at::timestamp(3), $at::timestamp(3)
     WHERE NOT EXISTS (SELECT 1 FROM open_deal)
     RETURNING id
   )
   SELECT ${stateColumns({
     project: '$projectId::int',
     client: '$clientId::int',
     deal: '(SELECT id FROM open_deal UNION ALL SELECT id FROM new_deal)',
     variablesDeal: '(SELECT id FROM open_deal)',
   })}
   FROM "Project" p WHERE p.id = $projectId`,
  stateRow,
);

// The variable changes of the final write (event-writes.ts).
/**
 * Data-modifying CTEs writing a client's variable changes (already checked against the
 * limits), for a statement with $projectId, $clientId and $at; the changes come as arrays
 * (`variableWriteParams`), so the text is the same whatever changed.
 */
export const VARIABLE_WRITES_SQL = `
  deal_cleared AS (
    DELETE FROM "DealVariable" v USING unnest($clearedDealIds::int[], $clearedDealNames::text[]) AS x ("dealId", name)
    WHERE v."dealId" = x."dealId" AND v.name = x.name
  ), deal_set AS (
    INSERT INTO "DealVariable" ("projectId", "dealId", name, value, "valueKey", "updatedAt")
    SELECT $projectId::int, x."dealId", x.name, x.value, x."valueKey", $at::timestamp(3)
    FROM unnest($setDealIds::int[], $setDealNames::text[], $setDealValues::text[], $setDealKeys::text[])
      AS x ("dealId", name, value, "valueKey")
    ON CONFLICT ("dealId", name) DO UPDATE
    SET value = EXCLUDED.value, "valueKey" = EXCLUDED."valueKey", "updatedAt" = EXCLUDED."updatedAt"
  ), client_cleared AS (
    DELETE FROM "ClientVariable" WHERE "clientId" = $clientId::int AND name = ANY ($clearedClientNames::text[])
  ), client_set AS (
    INSERT INTO "ClientVariable" ("projectId", "clientId", name, value, "valueKey", "updatedAt")
    SELECT $projectId::int, $clientId::int, x.name, x.value, x."valueKey", $at::timestamp(3)
    FROM unnest($setClientNames::text[], $setClientValues::text[], $setClientKeys::text[]) AS x (name, value, "valueKey")
    ON CONFLICT ("clientId", name) DO UPDATE
    SET value = EXCLUDED.value, "valueKey" = EXCLUDED."valueKey", "updatedAt" = EXCLUDED."updatedAt"
  )`;

/** The event's channel state of its client (`ClientChannelState`), for the final write. */
const CHANNEL_STATE_WRITES_SQL = `
  state_cleared AS (
    DELETE FROM "ClientChannelState" WHERE "clientId" = $clientId::int AND key = ANY ($clearedStateKeys::text[])
  ), state_set AS (
    INSERT INTO "ClientChannelState" ("clientId", key, value, "updatedAt")
    SELECT $clientId::int, x.key, x.value, $at::timestamp(3)
    FROM unnest($setStateKeys::text[], $setStateValues::text[]) AS x (key, value)
    ON CONFLICT ("clientId", key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = EXCLUDED."updatedAt"
  )`;

/** The parameters of the channel state's writes. */
export function channelStateParams(state: Readonly<Record<string, string | null>>) {
  const entries = Object.entries(state);
  const set = entries.filter((e): e is [string, string] => e[1] !== null);
  return {
    clearedStateKeys: entries.filter(([, value]) => value === null).map(([key]) => key),
    setStateKeys: set.map(([key]) => key),
    setStateValues: set.map(([, value]) => value),
  };
}

/** The parameters of `VARIABLE_WRITES_SQL` for these changes. */
export function variableWriteParams(writes: VariableWrites) {
  const deals = [...writes.deals].flatMap(([dealId, changes]) =>
    [...changes].map(([name, value]) => ({ dealId, name, value })),
  );
  const dealSets = deals.filter((c): c is typeof c & { value: string } => c.value !== null);
  const dealClears = deals.filter((c) => c.value === null);
  const client = [...writes.client];
  const clientSets = client.filter((c): c is [string, string] => c[1] !== null);
  return {
    clearedDealIds: dealClears.map((c) => c.dealId),
    clearedDealNames: dealClears.map((c) => c.name),
    setDealIds: dealSets.map((c) => c.dealId),
    setDealNames: dealSets.map((c) => c.name),
    setDealValues: dealSets.map((c) => c.value),
    setDealKeys: dealSets.map((c) => valueKey(c.value)),
    clearedClientNames: client.filter(([, value]) => value === null).map(([name]) => name),
    setClientNames: clientSets.map(([name]) => name),
    setClientValues: clientSets.map(([, value]) => value),
    setClientKeys: clientSets.map(([, value]) => valueKey(value)),
  };
}

// The final write (event-writes.ts).
/** The error text of an event whose lease was lost before its final write. */
export const LEASE_LOST = 'lease_lost';

export const storeEvent = new PreparedStatement(
  `WITH messages AS (
     INSERT INTO "Message" ("projectId", "clientId", direction, text, attachments, buttons, "blockId",
       "messageFromOutside", "senderMemberId", delivered, status, "dedupeKey", "createdAt")
     SELECT $projectId::int, $clientId::int, m.direction::"Direction", m.text, m.attachments, m.buttons, m."blockId",
       m."messageFromOutside", m."senderMemberId", m.delivered,
       CASE WHEN m.direction = 'out' THEN
         (CASE WHEN m.delivered THEN 'delivered' ELSE 'queued' END)::"DeliveryStatus" END,
       m."dedupeKey", $at::timestamp(3)
     FROM unnest($directions::text[], $texts::text[], $attachments::jsonb[], $buttons::jsonb[], $blockIds::int[],
       $froms::int[], $senderMemberIds::int[], $delivered::boolean[], $dedupeKeys::text[])
       WITH ORDINALITY AS m (direction, text, attachments, buttons, "blockId", "messageFromOutside", "senderMemberId",
         delivered, "dedupeKey", n)
     ORDER BY m.n
     ON CONFLICT ("dedupeKey") DO NOTHING
     RETURNING id, "dedupeKey", direction
   ),${VARIABLE_WRITES_SQL},${CHANNEL_STATE_WRITES_SQL},
   client AS (
     UPDATE "Client" SET "currentBlockId" = $currentBlockId::int, "updatedAt" = $at::timestamp(3),
       "lastBlockAt" = CASE WHEN $enteredBlock::boolean THEN $at::timestamp(3) ELSE "lastBlockAt" END,
       "lastMessageAt" = coalesce($lastMessageAt::timestamp(3), "lastMessageAt"),
       "customAnswer" = coalesce($customAnswer::text, "customAnswer"),
       -- A client's own message subscribes them again (a tg client who blocked the bot was not).
       subscribed = subscribed OR $fromClient::boolean,
       -- Kept for the next event of this client in this process, which claims it with this token.
       "leaseToken" = CASE WHEN $keepLease::boolean THEN "leaseToken" END,
       "leaseUntil" = CASE WHEN $keepLease::boolean THEN "leaseUntil" END
     WHERE id = $clientId::int AND "leaseToken" = $leaseToken::text
     RETURNING id
   ), log AS (
     INSERT INTO "EngineLogEntry" ("projectId", "clientId", kind, data, "createdAt")
     SELECT $projectId::int, $clientId::int, l.kind, l.data, $at::timestamp(3)
     FROM unnest($logKinds::text[], $logData::jsonb[]) WITH ORDINALITY AS l (kind, data, n)
     ORDER BY l.n
   ), hit AS (
     -- What the event did, for the analytics roll-up (server/analytics/roll-up.ts).
     INSERT INTO "FlowHit" ("projectId", version, "clientId", at, blocks, arrows, stages, submitted)
     SELECT $projectId::int, $hitVersion::int, $clientId::int, $at::timestamp(3), $hitBlocks::int[],
       $hitArrows::int[], $hitStages::int[], $hitSubmitted::int[]
     WHERE $hitVersion::int IS NOT NULL
   ), outbox AS (
     -- The event's side effects, held by this process for a while: it carries them out at once.
     INSERT INTO "Outbox" ("projectId", "clientId", kind, "messageId", payload, "claimedUntil", "createdAt")
     SELECT $projectId::int, $clientId::int, o.kind, o."messageId", o.payload,
       ${DB_NOW} + make_interval(secs => ${OUTBOX_CLAIM_SECONDS}), $at::timestamp(3)
     FROM (
       SELECT 1 AS pos, 'send' AS kind, id AS "messageId", NULL::jsonb AS payload, 0::bigint AS n FROM messages
       WHERE $sends::boolean AND direction = 'out'
       UNION ALL
       SELECT 2, 'webhook', id, NULL, 0 FROM messages WHERE $webhooks::boolean
       UNION ALL
       -- The submissions' webhooks follow the messages' (the event's order).
       SELECT 3, 'webhook', NULL, jsonb_build_object('submissionId', s.id), s.n
       FROM unnest($submissionIds::int[]) WITH ORDINALITY AS s (id, n) WHERE $webhooks::boolean
       UNION ALL
       SELECT 4, 'follow_up', NULL, f.payload, f.n FROM unnest($followUps::jsonb[]) WITH ORDINALITY AS f (payload, n)
     ) o
     ORDER BY o.pos, o."messageId", o.n
     RETURNING id, kind, "messageId", payload
   ), outbox_done AS (
     UPDATE "Outbox" SET state = 'done', "doneAt" = $at::timestamp(3) WHERE id = $doneOutboxId::bigint
   )
   -- An event whose lease expired and went to another event stores nothing: the cast fails
   -- (read in the output, or the planner drops it).
   SELECT m.id::text AS id, m."dedupeKey", lease.held, lease.outbox
   FROM (
     SELECT (CASE WHEN EXISTS (SELECT 1 FROM client) THEN '1' ELSE '${LEASE_LOST}' END)::int AS held,
       (SELECT json_agg(json_build_object('id', id::text, 'kind', kind, 'messageId', "messageId"::text,
         'payload', payload) ORDER BY id) FROM outbox) AS outbox
   ) lease
   LEFT JOIN messages m ON true`,
  z.object({
    id: column.text.nullable(),
    dedupeKey: column.text.nullable(),
    outbox: column.json(z.array(outboxRow).nullable()),
  }),
);

// The outbox (outbox.ts, server/webhooks/webhook-jobs.ts).
/**
 * A send's outcome, on its message and its outbox row. One send a statement, by scalar
 * parameters: an array of outcomes left PostgreSQL a choice between re-planning at every send
 * and a plan sized for a hundred rows that scanned both tables.
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
 * the messenger is back. Those being tried again are left to their try.
 */
export const releaseHeld = new PreparedStatement(
  `UPDATE "Outbox" o SET "claimedUntil" = ${DB_NOW}
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

// Ids an event draws before its final write (run-state.ts).
/** Tables whose new rows the event numbers itself, as their id is needed before the final write. */
export type NumberedTable = 'Deal' | 'Submission' | 'ScheduledSend';

const nextIdStatement = (table: NumberedTable) =>
  new PreparedStatement(
    `SELECT nextval(pg_get_serial_sequence('"${table}"', 'id'))::int AS id`,
    z.object({ id: column.int }),
  );
export const nextIds: Record<NumberedTable, PreparedStatement<{ id: number }>> = {
  Deal: nextIdStatement('Deal'),
  Submission: nextIdStatement('Submission'),
  ScheduledSend: nextIdStatement('ScheduledSend'),
};
