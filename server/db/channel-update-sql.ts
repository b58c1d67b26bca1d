import { z } from 'zod';
import { column, DB_NOW } from './columns';
import { PreparedStatement } from './raw-sql';

/**
 * The channels' inbound updates (server/channels/inbound/pipeline.ts): stored held by the
 * process that received them, claimed for processing in each chat's order, finished or
 * failed, taken over when their holder died, pruned when old.
 */

export const heldRow = z.object({
  id: column.bigint,
  channelId: column.int,
  chat: column.text,
  updateId: column.bigint,
});
export type HeldRow = z.infer<typeof heldRow>;

/** The channel an update is processed for. */
export const updateChannel = z.object({
  channelId: column.int,
  kind: column.text,
  projectId: column.int,
  groupId: column.text,
  credentials: column.json(z.unknown()),
  settings: column.json(z.unknown()),
});

/**
 * Stores updates of a $kind channel held under $token, and sets the channel's "last update received" when it is
 * more than $touchSeconds old: every update of a busy bot writing that one row would queue
 * on its lock, and the Channels tab needs no more.
 * An update with no earlier unprocessed update of its chat is taken for processing as it is
 * stored (held for $processSeconds, its first attempt), so its processing needs no claim of its
 * own; one behind such an update is held for $acceptSeconds and claimed in its turn (claimHeld).
 * With $secret (a webhook), it stores only while the channel still receives by webhook with
 * this secret and bot id ($groupId), as the webhook checked them against its cached copy: no
 * row at all answers that the copy is stale. A repeat (its externalId stored) is dropped. Otherwise one row per stored update (`id` null when every
 * update was a repeat), each with the channel it is processed for.
 * $updates is one JSON array ({externalId, updateId, chat, payload}), not arrays to unnest: the planner
 * sizes an unnested array parameter only once it knows its value, so PostgreSQL re-planned the
 * statement at every update (more CPU than running it); sized alike either way, it keeps the
 * plan it made once per connection.
 */
export const INSERT_HELD_SQL = {
  /** The CTEs: `channel`, `touched` and `inserted`. */
  ctes: `channel AS (
     SELECT id, kind::text, "projectId", "groupId", credentials, settings FROM "Channel"
     WHERE id = $channelId::int AND kind = $kind::"ChannelKind" AND ($secret::text IS NULL
       OR ("receiveMode" = 'webhook' AND "inboundSecret" = $secret AND "groupId" = $groupId::text))
   ), touched AS (
     UPDATE "Channel" SET "lastUpdateAt" = ${DB_NOW}
     WHERE id = (SELECT id FROM channel) AND ("lastUpdateAt" IS NULL
       OR "lastUpdateAt" < ${DB_NOW} - make_interval(secs => $touchSeconds))
   ), inserted AS (
     INSERT INTO "ChannelUpdate" ("channelId", "externalId", "updateId", chat, payload, "claimToken", "claimedUntil", attempts)
     SELECT c.id, u."externalId", u."updateId", u.chat, u.payload, $token,
       ${DB_NOW} + make_interval(secs => CASE WHEN u.behind THEN $acceptSeconds::float8 ELSE $processSeconds::float8 END),
       CASE WHEN u.behind THEN 0 ELSE 1 END
     FROM channel c, LATERAL (
       SELECT x.*, (x.chat <> '' AND EXISTS (
         SELECT 1 FROM "ChannelUpdate" e WHERE e."channelId" = c.id AND e.chat = x.chat
           AND e."updateId" < x."updateId" AND e."processedAt" IS NULL)) AS behind
       FROM jsonb_to_recordset($updates::jsonb) AS x ("externalId" text, "updateId" bigint, chat text, payload jsonb)
     ) u
     ON CONFLICT ("channelId", "externalId") DO NOTHING
     RETURNING id, "externalId", chat, "updateId", attempts
   )`,
  /** True when an update was stored and taken for processing as it was stored (not behind). */
  taken: 'EXISTS (SELECT 1 FROM inserted WHERE attempts = 1)',
  select: `SELECT i.id::text AS id, c.id AS "channelId", i."externalId", i.chat, i."updateId"::text AS "updateId",
     i.attempts = 0 AS behind, c.kind, c."projectId", c."groupId", c.credentials, c.settings
   FROM channel c LEFT JOIN inserted i ON true`,
};

/** insertHeld's rows: one per stored update (`id` null when every update was a repeat), each with its channel. */
export const insertedRow = updateChannel.extend({
  id: column.bigint.nullable(),
  externalId: column.text.nullable(),
  chat: column.text.nullable(),
  updateId: column.bigint.nullable(),
  behind: column.bool.nullable(),
});

export const insertHeld = new PreparedStatement(
  `WITH ${INSERT_HELD_SQL.ctes} ${INSERT_HELD_SQL.select}`,
  insertedRow,
  { shares: true },
);

const webhookChannelRow = z.object({
  id: column.int,
  projectId: column.int,
  groupId: column.text,
  inboundSecret: column.text,
  credentials: column.json(z.unknown()),
  settings: column.json(z.unknown()),
});
export type WebhookChannelRow = z.infer<typeof webhookChannelRow>;

/** A $kind webhook's channel: its secret, its bot id, its credentials and its settings. */
export const webhookChannel = new PreparedStatement(
  `SELECT id, "projectId", "groupId", "inboundSecret", credentials, settings FROM "Channel"
   WHERE id = $id::int AND kind = $kind::"ChannelKind" AND "receiveMode" = 'webhook'`,
  webhookChannelRow,
);

export const claimedRow = updateChannel.extend({
  behind: z.boolean(),
  payload: column.json(z.unknown()),
});

/**
 * Takes a held update for processing: still unprocessed and held under `token`. One behind an
 * earlier unprocessed update of its chat (held by another process, or failed) is not taken:
 * its hold is dropped so the sweeper takes it once the earlier one is done.
 */
export const claimHeld = new PreparedStatement(
  `WITH target AS (
     SELECT t.id, (t.chat <> '' AND EXISTS (
       SELECT 1 FROM "ChannelUpdate" e WHERE e."channelId" = t."channelId" AND e.chat = t.chat
         AND e."updateId" < t."updateId" AND e."processedAt" IS NULL)) AS behind
     FROM "ChannelUpdate" t
     WHERE t.id = $id::bigint AND t."processedAt" IS NULL AND t."claimToken" = $token
     FOR UPDATE OF t
   )
   UPDATE "ChannelUpdate" t SET
     "claimedUntil" = CASE WHEN target.behind THEN NULL
       ELSE ${DB_NOW} + make_interval(secs => $seconds) END,
     attempts = t.attempts + CASE WHEN target.behind THEN 0 ELSE 1 END
   FROM target, "Channel" c
   WHERE t.id = target.id AND c.id = t."channelId"
   RETURNING target.behind, t.payload, c.id AS "channelId", c.kind::text, c."projectId", c."groupId", c.credentials, c.settings`,
  claimedRow,
);

export const finish = new PreparedStatement(
  `UPDATE "ChannelUpdate" SET "processedAt" = ${DB_NOW}, error = NULL, "claimedUntil" = NULL
   WHERE id = $id::bigint AND "claimToken" = $token`,
  undefined,
  { shares: true },
);

/** An update that cannot be processed (malformed): done, with why. */
export const finishNotProcessed = new PreparedStatement(
  `UPDATE "ChannelUpdate" SET "processedAt" = ${DB_NOW}, error = $error, "claimedUntil" = NULL
   WHERE id = $id::bigint AND "claimToken" = $token`,
);

/** A failed attempt: the sweeper tries it again, up to MAX_ATTEMPTS, then it is given up. */
export const recordFailure = new PreparedStatement(
  `UPDATE "ChannelUpdate" SET error = $error, "claimedUntil" = NULL,
     "processedAt" = CASE WHEN attempts >= $maxAttempts::int THEN ${DB_NOW} END
   WHERE id = $id::bigint AND "claimToken" = $token`,
);

/** Takes over unprocessed updates whose hold expired (their process died, or they waited). */
export const takeExpired = new PreparedStatement(
  `UPDATE "ChannelUpdate" SET "claimToken" = $token,
     "claimedUntil" = ${DB_NOW} + make_interval(secs => $seconds)
   WHERE id IN (
     SELECT id FROM "ChannelUpdate"
     WHERE "processedAt" IS NULL AND ("claimedUntil" IS NULL OR "claimedUntil" < ${DB_NOW})
     ORDER BY "channelId", "updateId" LIMIT $batch::int FOR UPDATE SKIP LOCKED
   )
   RETURNING id::text AS id, "channelId", chat, "updateId"::text AS "updateId"`,
  heldRow,
);

export const prune = new PreparedStatement(
  `DELETE FROM "ChannelUpdate" WHERE id IN (
     SELECT id FROM "ChannelUpdate"
     WHERE "processedAt" < ${DB_NOW} - make_interval(days => $keepDays::int)
     LIMIT 10000
   )`,
);
