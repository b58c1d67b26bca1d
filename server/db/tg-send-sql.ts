import { z } from 'zod';
import { slotColumns, takeSlotSql } from './channel-pacing-sql';
import { column } from './columns';
import { PreparedStatement } from './raw-sql';

/**
 * What a send to a tg client needs, in one statement (server/channels/tg/business.ts): the
 * bot the client wrote to (its group_id, any case) and, when the client last wrote through a
 * business account, that connection's id and state (null when the bot never saw it). When the
 * route may be used (no connection, one the bot never saw, or one enabled with the right to
 * reply), the first send's pacing slot is taken in the same statement (server/db/channel-pacing-sql.ts);
 * a refused route takes none, and its slot columns are null.
 */
export const sendRouteWithSlot = new PreparedStatement(
  `WITH route AS (
     SELECT c.id, c."projectId", c."groupId", c.credentials,
       v.value AS "connectionId", b.enabled, b."canReply"
     FROM "Channel" c
     LEFT JOIN "ClientChannelState" v ON v."clientId" = $clientId::int AND v.key = $stateKey
     LEFT JOIN "TgBusinessConnection" b ON b."channelId" = c.id AND b."connectionId" = v.value
     WHERE c."projectId" = $projectId::int AND c."clientType" = $clientType::int
       AND lower(c."groupId") = lower($groupId)
     ORDER BY c.id LIMIT 1),
   ${takeSlotSql(
     'route.id',
     'route',
     `route."connectionId" IS NULL OR route.enabled IS NULL OR (route.enabled AND route."canReply")`,
   )}
   SELECT route.*, slot."waitMs", slot."chatEntry" FROM route LEFT JOIN slot ON true`,
  z.object({
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
