import { z } from 'zod';
import { column } from './columns';
import { PreparedStatement } from './raw-sql';

/**
 * The inbox's SQL (server/inbox/inbox-query.ts): one page of a project's conversations for one
 * member, newest first, with the last message and the member's unread count.
 */

/** Unread counts stop here ("99+"): counting a long conversation's backlog would cost a scan. */
export const UNREAD_CAP = 100;

/**
 * Whether the conversation of client `c` waits for an operator (docs/inbox.md, "Waiting"):
 * marked so (`ask_operator()`), or the bot is paused at `$now` and the client's latest message
 * (system messages aside) has no answer after it. The one definition of the list's filter, its
 * mark and the count.
 */
const WAITING = `coalesce(c."waitingSince" IS NOT NULL OR (
     c."botPausedAt" IS NOT NULL AND (c."botPausedUntil" IS NULL OR c."botPausedUntil" > $now::timestamp(3))
     AND (SELECT m.direction = 'in' FROM "Message" m
          WHERE m."projectId" = c."projectId" AND m."clientId" = c.id
            AND NOT (m.direction = 'in' AND m."messageFromOutside" <> 0)
          ORDER BY m.id DESC LIMIT 1)), false)`;

/**
 * A conversation is a client that has written (`lastMessageAt`); `$filter` is `all`, `mine`
 * (assigned to `$memberId`), `unassigned` or `waiting` (for an operator, `WAITING`). Keyset paging by
 * (`lastMessageAt`, id) descending from `$beforeAt`/`$beforeId` (null: the first page), on the
 * Clients tab's index. Unread: the client's own messages (not system ones) after the member's
 * read marker, among its latest `UNREAD_CAP` incoming messages.
 */
export const conversationPage = new PreparedStatement(
  `SELECT c.id, c.name, c."clientType", c."platformId", c."assignedMemberId", c."lastMessageAt",
     c."botPausedAt", c."botPausedUntil", c."waitingSince",
     am.name AS "assignedName", am.email AS "assignedEmail",
     last.id::text AS "lastId", last.text AS "lastText", last.direction::text AS "lastDirection",
     last.attachments->0->>'type' AS "lastAttachment", last."messageFromOutside" AS "lastFrom",
     coalesce(nullif(sender.name, ''), sender.email) AS "lastOperator", ${WAITING} AS waiting,
     (SELECT count(*)::int FROM (
        SELECT m.id FROM "Message" m
        WHERE m."projectId" = c."projectId" AND m."clientId" = c.id AND m.direction = 'in'
          AND m."messageFromOutside" = 0
        ORDER BY m."createdAt" DESC LIMIT ${UNREAD_CAP}
      ) recent WHERE recent.id > coalesce(r."lastReadMessageId", 0)) AS unread
   FROM "Client" c
   LEFT JOIN "ProjectMember" am ON am.id = c."assignedMemberId"
   LEFT JOIN "ConversationRead" r ON r."clientId" = c.id AND r."memberId" = $memberId::int
   LEFT JOIN LATERAL (
     SELECT m.id, m.text, m.direction, m.attachments, m."messageFromOutside", m."senderMemberId" FROM "Message" m
     WHERE m."projectId" = c."projectId" AND m."clientId" = c.id
     ORDER BY m."createdAt" DESC, m.id DESC LIMIT 1
   ) last ON true
   LEFT JOIN "ProjectMember" sender ON sender.id = last."senderMemberId"
   WHERE c."projectId" = $projectId::int AND c."lastMessageAt" IS NOT NULL
     AND ($filter::text <> 'mine' OR c."assignedMemberId" = $memberId::int)
     AND ($filter::text <> 'unassigned' OR c."assignedMemberId" IS NULL)
     AND ($filter::text <> 'waiting' OR ${WAITING})
     AND ($beforeAt::timestamp(3) IS NULL OR c."lastMessageAt" < $beforeAt::timestamp(3)
       OR (c."lastMessageAt" = $beforeAt::timestamp(3) AND c.id < $beforeId::int))
   ORDER BY c."lastMessageAt" DESC, c.id DESC
   LIMIT $limit::int`,
  z.object({
    id: column.int,
    name: column.text,
    clientType: column.int,
    platformId: column.text,
    assignedMemberId: column.int.nullable(),
    lastMessageAt: column.timestamp,
    botPausedAt: column.timestamp.nullable(),
    botPausedUntil: column.timestamp.nullable(),
    waitingSince: column.timestamp.nullable(),
    assignedName: column.text.nullable(),
    assignedEmail: column.text.nullable(),
    lastId: column.text.nullable(),
    lastText: column.text.nullable(),
    lastDirection: column.text.nullable(),
    /** The type of the last message's first attachment, if any. */
    lastAttachment: column.text.nullable(),
    lastFrom: column.int.nullable(),
    /** The team member who sent the last message (an operator's reply), by name or e-mail. */
    lastOperator: column.text.nullable(),
    waiting: column.bool,
    unread: column.int,
  }),
);

/** How many of the project's conversations wait for an operator (`WAITING`). */
export const waitingCount = new PreparedStatement(
  `SELECT count(*)::int AS count FROM "Client" c
   WHERE c."projectId" = $projectId::int AND c."lastMessageAt" IS NOT NULL AND ${WAITING}`,
  z.object({ count: column.int }),
);

/** Whether one conversation waits for an operator (`WAITING`). */
export const conversationWaiting = new PreparedStatement(
  `SELECT ${WAITING} AS waiting FROM "Client" c WHERE c.id = $clientId::int AND c."projectId" = $projectId::int`,
  z.object({ waiting: column.bool }),
);

/** Moves a member's read marker of a conversation forward (never back) to one of its messages. */
export const markConversationRead = new PreparedStatement(
  `INSERT INTO "ConversationRead" ("memberId", "clientId", "lastReadMessageId")
   SELECT $memberId::int, m."clientId", m.id FROM "Message" m
   WHERE m.id = $messageId::bigint AND m."clientId" = $clientId::int AND m."projectId" = $projectId::int
   ON CONFLICT ("memberId", "clientId") DO UPDATE
   SET "lastReadMessageId" = greatest("ConversationRead"."lastReadMessageId", EXCLUDED."lastReadMessageId")`,
);
