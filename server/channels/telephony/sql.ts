import { z } from 'zod';
import { column } from '@/server/db/columns';
import { PreparedStatement } from '@/server/db/raw-sql';

/**
 * The telephony channel's own statements: what a call's turns read (the caller, the question
 * they answer, their pause and the version their project runs), as plain prepared statements,
 * which take less CPU a call than the ORM's queries (the ORM was the largest part of a turn's
 * own CPU in a profile). Each reads a row or two by key: they share the engine's connections
 * (`shares`, server/db/raw-sql.ts).
 */

const channelRow = z.object({
  id: column.int,
  projectId: column.int,
  groupId: column.text,
  credentials: column.json(z.unknown()),
  settings: column.json(z.unknown()),
});
export type TelephonyChannelRow = z.infer<typeof channelRow>;

const CHANNEL_COLUMNS = `id, "projectId", "groupId", credentials, settings`;

/**
 * The channel a client's messages go through: `$id` when it is still a telephony channel of
 * the project, else the project's first (see clientTelephonyChannel).
 */
export const projectTelephonyChannel = new PreparedStatement(
  `SELECT ${CHANNEL_COLUMNS} FROM "Channel"
   WHERE "projectId" = $projectId::int AND kind = 'telephony'
   ORDER BY (id = $id::int) DESC, id LIMIT 1`,
  channelRow,
  { shares: true },
);

/**
 * What a turn's end depends on, the client's pause and the version their project runs, when no
 * event of the turn ran here to say it (a repeat, the verbs a call fetches).
 */
export const turnEndState = new PreparedStatement(
  `SELECT c."botPausedAt", c."botPausedUntil", p."publishedVersion"
   FROM "Client" c JOIN "Project" p ON p.id = c."projectId" WHERE c.id = $clientId::int`,
  z.object({
    botPausedAt: column.timestamp.nullable(),
    botPausedUntil: column.timestamp.nullable(),
    publishedVersion: column.int,
  }),
  { shares: true },
);

const callerRow = z.object({
  id: column.int,
  currentBlockId: column.int.nullable(),
  botPausedAt: column.timestamp.nullable(),
});
const CALLER_COLUMNS = `c.id, c."currentBlockId", c."botPausedAt"`;
/** A caller by their number, as the project knows them (telephony clients have no group). */
const CALLER_WHERE = `c."projectId" = $projectId::int AND c."clientType" = $clientType::int
  AND c."groupId" = '' AND c."platformId" = $platformId`;

export const callerByNumber = new PreparedStatement(
  `SELECT ${CALLER_COLUMNS} FROM "Client" c WHERE ${CALLER_WHERE}`,
  callerRow,
  { shares: true },
);

/**
 * A caller by their number (as callerByNumber) with the last thing said to them: the question
 * their digits or silence answer (`said` false when nothing was). One statement for a gather's
 * every answer.
 */
export const callerWithLastSaid = new PreparedStatement(
  `SELECT ${CALLER_COLUMNS}, m.id IS NOT NULL AS said, m.text, m.buttons, m."externalId"
   FROM "Client" c LEFT JOIN LATERAL (
     SELECT id, text, buttons, "externalId" FROM "Message"
     WHERE "clientId" = c.id AND direction = 'out' ORDER BY id DESC LIMIT 1
   ) m ON true
   WHERE ${CALLER_WHERE}`,
  callerRow.extend({
    said: column.bool,
    text: column.text.nullable(),
    buttons: column.json(z.unknown()).nullable(),
    externalId: column.text.nullable(),
  }),
  { shares: true },
);
