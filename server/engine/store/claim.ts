import { z } from 'zod';
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

/**
 * What the claim writes: a client's lease (set, checked, released), a first contact's client and
 * open deal, with what the event starts from read in the same statement. The engine's SQL lives
 * under `store/`, a module for what each statement writes; each declares the schema of its rows,
 * so the modules that run them (client-lease, event-state, event-writes, outbox,
 * server/webhooks/webhook-jobs) get typed rows and hold no SQL text.
 */

// The lease (client-lease.ts).

export const exists = new PreparedStatement(
  `SELECT 1 FROM "Client" c WHERE c.id = $clientId::int AND c."projectId" = $projectId::int`,
  undefined,
  { shares: true },
);

/** A message a channel sent again (its key is stored already): its event is not run twice. */
export const messageKeyStored = new PreparedStatement(
  `SELECT 1 FROM "Message" WHERE "dedupeKey" = $key::text LIMIT 1`,
  undefined,
  { shares: true },
);

export const release = new PreparedStatement(
  `UPDATE "Client" SET "leaseToken" = NULL, "leaseUntil" = NULL WHERE id = $clientId AND "leaseToken" = $token`,
  undefined,
  { shares: true },
);

// What an event starts from (event-state.ts).
/**
 * Project p's settings (its published version, or for the simulator its draft's revision, keys
 * the compiled bot), the deal and the variables.
 */
export const stateColumns = (ids: { project: string; client: string; deal: string; variablesDeal: string }) =>
  `p.plan::text AS plan, p."timeZone", p."schemaRevision", p."publishedVersion",
   p."webhookUrl" IS NOT NULL AS "hasWebhook", p."webhookTestConversations",
   coalesce(p."publishedRevision" = p."schemaRevision", false) AS "draftIsPublished",
   ${ids.deal} AS "dealId", ${scopedVariablesColumns(ids.variablesDeal, ids.client, ids.project)}`;

/** The columns of `stateColumns`, typed. */
export const stateRow = scopedVariablesRow.extend({
  plan: z.enum(Plan),
  timeZone: column.text,
  schemaRevision: column.int,
  publishedVersion: column.int,
  hasWebhook: column.bool,
  /** Whether the simulator's conversations go to the webhook too. */
  webhookTestConversations: column.bool,
  /** The draft is the published version (no unpublished changes): its test conversations count for it. */
  draftIsPublished: column.bool,
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
    { shares: true },
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
  { shares: true },
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
  { shares: true },
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
  { shares: true },
);
