import { z } from 'zod';
import { column } from '@/server/db/columns';
import { PreparedStatement } from '@/server/db/raw-sql';

/**
 * The chat widget's hot-path SQL (server/channels/widget/): every request's channel and
 * visitor, and the dialog's messages its history and live streams read.
 */

/**
 * The widget channel a page names by its key and, when $tokenHash is one of its visitors'
 * (null: none given), that visitor's client: one statement for what each request checks.
 */
export const channelWithVisitor = new PreparedStatement(
  `SELECT ch.id, ch."projectId", ch."groupId", ch.settings,
     c.id AS "clientId", c."platformId" AS recipient
   FROM "Channel" ch
   LEFT JOIN "WidgetVisitor" v ON v."tokenHash" = $tokenHash::text AND v."channelId" = ch.id
   LEFT JOIN "Client" c ON c.id = v."clientId"
   WHERE ch."clientType" = $clientType::int AND ch."groupId" = $key::text AND ch.kind = 'widget'
   LIMIT 1`,
  z.object({
    id: column.int,
    projectId: column.int,
    groupId: column.text,
    settings: column.json(z.unknown()),
    clientId: column.int.nullable(),
    recipient: column.text.nullable(),
  }),
);

const dialogRow = z.object({
  id: column.bigint,
  direction: z.enum(['in', 'out']),
  text: column.text,
  attachments: column.json(z.unknown()),
  buttons: column.json(z.unknown()).nullable(),
  createdAt: column.timestamp,
  blockId: column.int.nullable(),
  currentBlockId: column.int.nullable(),
  operatorName: column.text.nullable(),
  operatorAvatar: column.text.nullable(),
});

// With the client's block now (the widget keeps a state's reply buttons under other blocks'
// answers) and an operator's reply's name and avatar (null: not an operator's).
const DIALOG_COLUMNS = `m.id::text AS id, m.direction::text AS direction, m.text, m.attachments,
  m.buttons, m."createdAt", m."blockId", c."currentBlockId",
  CASE WHEN pm.id IS NOT NULL THEN COALESCE(NULLIF(pm.name, ''), NULLIF(u.name, ''), 'Operator') END AS "operatorName",
  NULLIF(pm."avatarUrl", '') AS "operatorAvatar"`;
const DIALOG_FROM = `"Message" m JOIN "Client" c ON c.id = m."clientId"
   LEFT JOIN "ProjectMember" pm ON pm.id = m."senderMemberId"
   LEFT JOIN "user" u ON u.id = pm."userId"`;

/** The dialog's messages after $after, oldest first (what a live stream sends on). */
export const dialogAfter = new PreparedStatement(
  `SELECT ${DIALOG_COLUMNS} FROM ${DIALOG_FROM}
   WHERE m."projectId" = $projectId::int AND m."clientId" = $clientId::int AND m.id > $after::bigint
   ORDER BY m.id LIMIT $limit::int`,
  dialogRow,
);

/** The dialog's messages before $before, newest first (the history, paged back by id). */
export const dialogBefore = new PreparedStatement(
  `SELECT ${DIALOG_COLUMNS} FROM ${DIALOG_FROM}
   WHERE m."projectId" = $projectId::int AND m."clientId" = $clientId::int AND m.id < $before::bigint
   ORDER BY m.id DESC LIMIT $limit::int`,
  dialogRow,
);
