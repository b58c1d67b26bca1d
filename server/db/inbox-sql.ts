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
 * A conversation is a client that has written (`lastMessageAt`); `$filter` is `all`, `mine`
 * (assigned to `$memberId`), `unassigned` or `waiting` (for an operator). Keyset paging by
 * (`lastMessageAt`, id) descending from `$beforeAt`/`$beforeId` (null: the first page), on the
 * Clients tab's index. Unread: the client's own messages (not system ones) after the member's
 * read marker, among its latest `UNREAD_CAP` incoming messages.
 */
export const conversationPage = new PreparedStatement(
  `SELECT c.id, c.name, c."clientType", c."platformId", c."assignedMemberId", c."lastMessageAt",
     c."botPausedAt", c."botPausedUntil", c."waitingSince",
     am.name AS "assignedName", am.email AS "assignedEmail",
     last.id::text AS "lastId", last.text AS "lastText", last.direction::text AS "lastDirection",
     last.attachments->0->>'type' AS "lastAttachment",
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
     SELECT m.id, m.text, m.direction, m.attachments FROM "Message" m
     WHERE m."projectId" = c."projectId" AND m."clientId" = c.id
     ORDER BY m."createdAt" DESC, m.id DESC LIMIT 1
   ) last ON true
   WHERE c."projectId" = $projectId::int AND c."lastMessageAt" IS NOT NULL
     AND ($filter::text <> 'mine' OR c."assignedMemberId" = $memberId::int)
     AND ($filter::text <> 'unassigned' OR c."assignedMemberId" IS NULL)
     AND ($filter::text <> 'waiting' OR c."waitingSince" IS NOT NULL)
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
    unread: column.int,
  }),
);

/** Moves a member's read marker of a conversation forward (never back) to one of its messages. */
export const markConversationRead = new PreparedStatement(
  `INSERT INTO "ConversationRead" ("memberId", "clientId", "lastReadMessageId")
   SELECT $memberId::int, m."clientId", m.id FROM "Message" m
   WHERE m.id = $messageId::bigint AND m."clientId" = $clientId::int AND m."projectId" = $projectId::int
   ON CONFLICT ("memberId", "clientId") DO UPDATE
   SET "lastReadMessageId" = greatest("ConversationRead"."lastReadMessageId", EXCLUDED."lastReadMessageId")`,
);
