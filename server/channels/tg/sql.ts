import { z } from 'zod';
import { slotColumns, TAKEN_SLOT_COLUMNS, takeSlotsSql } from '@/server/db/channel-pacing-sql';
import { column } from '@/server/db/columns';
import { PreparedStatement } from '@/server/db/raw-sql';

/**
 * What sends to tg clients need, for the sends of one moment together (server/channels/tg/business.ts:
 * `$rows`, one per send; `n` its place, from 1): the bot the client wrote to (its group_id, any case)
 * and, when the client last wrote through a business account, that connection's id and state
 * (null when the bot never saw it). When the route may be used (no connection, one the bot
 * never saw, or one enabled with the right to reply), the send's first pacing slot is taken in
 * the same statement (takeSlotsSql, server/db/channel-pacing-sql.ts); a refused route takes
 * none, and its slot columns are null. A send whose bot is not connected has no row. Each
 * look-up is a lateral one by primary key (its LIMIT keeps the planner from making it a
 * join), so a plan kept from a nearly empty table still reads only the rows it needs.
 */
export const sendRoutesWithSlots = new PreparedStatement(
  `WITH request AS (
     SELECT * FROM ROWS FROM (jsonb_to_recordset($rows::jsonb) AS ("projectId" int, "clientType" int,
       "groupId" text, "clientId" int, chat text, "botMs" float8, "chatMs" float8)) WITH ORDINALITY
       AS r ("projectId", "clientType", "groupId", "clientId", chat, "botMs", "chatMs", n)
   ), route AS (
     SELECT r.n, r.chat, r."botMs", r."chatMs", c.id, c."projectId", c."groupId", c.credentials,
       v.value AS "connectionId", b.enabled, b."canReply"
     FROM request r
     CROSS JOIN LATERAL (
       SELECT c.id, c."projectId", c."groupId", c.credentials FROM "Channel" c
       WHERE c."projectId" = r."projectId" AND c."clientType" = r."clientType"
         AND lower(c."groupId") = lower(r."groupId")
       ORDER BY c.id LIMIT 1
     ) c
     LEFT JOIN LATERAL (
       SELECT v.value FROM "ClientChannelState" v WHERE v."clientId" = r."clientId" AND v.key = $stateKey
       LIMIT 1
     ) v ON true
     LEFT JOIN LATERAL (
       SELECT b.enabled, b."canReply" FROM "TgBusinessConnection" b
       WHERE b."channelId" = c.id AND b."connectionId" = v.value
       LIMIT 1
     ) b ON true
   ), usable AS (
     SELECT * FROM route WHERE "connectionId" IS NULL OR enabled IS NULL OR (enabled AND "canReply")
   ),
   ${takeSlotsSql('usable')}
   SELECT f.n, f.id, f."projectId", f."groupId", f.credentials, f."connectionId", f.enabled, f."canReply",
     ${TAKEN_SLOT_COLUMNS}
   FROM route f LEFT JOIN usable u ON u.n = f.n LEFT JOIN slots s ON s."channelId" = u.id`,
  z.object({
    n: column.bigint,
    id: column.int,
    projectId: column.int,
    groupId: column.text,
    credentials: column.json(z.unknown()),
    connectionId: column.text.nullable(),
    enabled: column.bool.nullable(),
    canReply: column.bool.nullable(),
    waitMs: slotColumns.waitMs.nullable(),
    chatEntry: slotColumns.chatEntry.nullable(),
  }),
);

/**
 * Whether the project's published bot may answer a pressed button itself (it calls
 * tg_callback_url_open somewhere): its presses are then answered after the flow, not before it.
 */
export const answersCallbacksItself = new PreparedStatement(
  `SELECT EXISTS (
     SELECT 1 FROM "BotVersion" v JOIN "Project" p ON p.id = v."projectId" AND v.number = p."publishedVersion"
     WHERE p.id = $projectId::int AND v."answersCallbacks"
   ) AS itself`,
  z.object({ itself: column.bool }),
);
