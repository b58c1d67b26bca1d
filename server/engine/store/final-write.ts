import { z } from 'zod';
import { valueKey } from '@/server/contacts/variable-limits';
import type { VariableWrites } from '@/server/contacts/variable-store';
import { column, DB_NOW } from '@/server/db/columns';
import { PreparedStatement } from '@/server/db/raw-sql';
import { OUTBOX_CLAIM_SECONDS, outboxRow } from '../outbox-rows';

/**
 * What an event's final write stores (event-writes.ts), in one statement: its messages, the
 * variable changes, the channel state, the client's block, the log, the analytics hit and the
 * outbox rows of its side effects.
 */

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
     INSERT INTO "FlowHit" ("projectId", version, "clientId", at, blocks, arrows, stages, submitted, test)
     SELECT $projectId::int, $hitVersion::int, $clientId::int, $at::timestamp(3), $hitBlocks::int[],
       $hitArrows::int[], $hitStages::int[], $hitSubmitted::int[], $hitTest::boolean
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
  { shares: true },
);
