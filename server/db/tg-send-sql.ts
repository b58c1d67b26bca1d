import { z } from 'zod';
import { column } from './columns';
import { PreparedStatement } from './raw-sql';

/**
 * What a send to a tg client needs, in one statement (server/channels/tg/business.ts): the
 * bot the client wrote to (its group_id, any case) and, when the client last wrote through a
 * business account, that connection's id and state (null when the bot never saw it).
 */
export const sendRoute = new PreparedStatement(
  `SELECT c.id, c."projectId", c."groupId", c.credentials,
     v.value AS "connectionId", b.enabled, b."canReply"
   FROM "Channel" c
   LEFT JOIN "ClientVariable" v
     ON v."clientId" = $clientId::int AND v.name = $variable AND v.value <> ''
   LEFT JOIN "TgBusinessConnection" b ON b."channelId" = c.id AND b."connectionId" = v.value
   WHERE c."projectId" = $projectId::int AND c."clientType" = $clientType::int
     AND lower(c."groupId") = lower($groupId)
   ORDER BY c.id LIMIT 1`,
  z.object({
    id: column.int,
    projectId: column.int,
    groupId: column.text,
    credentials: column.json(z.unknown()),
    connectionId: column.text.nullable(),
    enabled: column.bool.nullable(),
    canReply: column.bool.nullable(),
  }),
);
