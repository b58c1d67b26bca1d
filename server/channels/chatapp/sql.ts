import { z } from 'zod';
import { rateSlotColumns, takeRateSlotSql } from '@/server/db/channel-pacing-sql';
import { column, DB_NOW } from '@/server/db/columns';
import { PreparedStatement } from '@/server/db/raw-sql';

/**
 * What a send to a chat-app client needs, in one statement (server/channels/chatapp/adapter.ts):
 * the number the client wrote to (its group_id) with its sealed credentials and settings, when
 * the client last wrote ($stateKey of their channel state), which opens the window, and when
 * the API last refused a free-form message to them ($closedKey), which closes it. A
 * Cloud API number's first send also takes its slot of the number's throughput, shared by
 * every process (the pacing row of server/db/channel-pacing-sql.ts, keyed by the channel).
 */
export const chatappSendRoute = new PreparedStatement(
  `WITH route AS (
     SELECT c.id, c."projectId", c."groupId", c.credentials, c.settings, s.value AS "lastMessageAt",
       closed.value AS "windowClosedAt"
     FROM "Channel" c
     LEFT JOIN "ClientChannelState" s ON s."clientId" = $clientId::int AND s.key = $stateKey
     LEFT JOIN "ClientChannelState" closed ON closed."clientId" = $clientId::int AND closed.key = $closedKey
     WHERE c."projectId" = $projectId::int AND c."clientType" = $clientType::int AND c."groupId" = $groupId
     ORDER BY c.id LIMIT 1),
   ${takeRateSlotSql('route.id', 'route', `route.credentials ->> 'provider' = 'cloud'`)}
   SELECT route.*, rate."waitMs", rate."rateMs" FROM route LEFT JOIN rate ON true`,
  z.object({
    id: column.int,
    projectId: column.int,
    groupId: column.text,
    credentials: column.json(z.unknown()),
    settings: column.json(z.unknown()),
    lastMessageAt: column.text.nullable(),
    windowClosedAt: column.text.nullable(),
    waitMs: rateSlotColumns.waitMs.nullable(),
    rateMs: rateSlotColumns.rateMs.nullable(),
  }),
);

/**
 * The API refused a free-form message to the client (131047) at `$at` (ISO): their window is
 * closed until they write again. A later refusal moves the time on, an earlier one (a status
 * report that came late) does not move it back.
 */
export const closeWindow = new PreparedStatement(
  `INSERT INTO "ClientChannelState" AS s ("clientId", key, value, "updatedAt")
   VALUES ($clientId::int, $closedKey, $at, ${DB_NOW})
   ON CONFLICT ("clientId", key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = EXCLUDED."updatedAt"
   WHERE s.value::timestamptz < EXCLUDED.value::timestamptz`,
);
