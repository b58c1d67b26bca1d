import { z } from 'zod';
import { isBotPaused } from '@/lib/inbox/pause';
import { decodeCursor, encodeCursor } from '@/lib/keyset-cursor';
import { messengerLabel } from '@/server/contacts/client-filter-options';
import { historyPage } from '@/server/contacts/history-service';
import type { PrismaClient } from '@/server/db/client-type';
import { conversationPage, markConversationRead, UNREAD_CAP } from '@/server/db/inbox-sql';
import { plainSql } from '@/server/db/raw-sql';
import { invalid, notFound, parseInput } from '@/server/errors';

export const INBOX_FILTERS = ['all', 'mine', 'unassigned', 'waiting'] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

export const conversationListInput = z.object({
  filter: z.enum(INBOX_FILTERS).default('all'),
  limit: z.number().int().min(1).max(100).default(50),
  cursor: z.string().max(500).optional(),
});

const CURSOR_SORT = 'inbox';

/** A last message with a file and no text (a photo sent without a caption) is listed by its kind. */
function previewText(text: string | null, attachment: string | null): string {
  if (text || !attachment) return text ?? '';
  return `[${attachment.charAt(0).toUpperCase()}${attachment.slice(1)}]`;
}

/**
 * One page of the project's conversations as one member sees them: newest first (by the
 * client's last message), with the last message, the member's unread count (capped at
 * `UNREAD_CAP`: "99+") and the handoff state; the cursor of the next page.
 */
export async function listConversations(
  db: PrismaClient,
  projectId: number,
  memberId: number,
  rawInput: z.input<typeof conversationListInput>,
  now = new Date(),
) {
  const input = parseInput(conversationListInput, rawInput);
  let before = { beforeAt: null as string | null, beforeId: 0 };
  if (input.cursor) {
    const cursor = decodeCursor(input.cursor, CURSOR_SORT);
    if (!cursor || typeof cursor.key !== 'string' || Number.isNaN(Date.parse(cursor.key)))
      throw invalid('This page of the inbox is out of date; reload it.', 'cursor');
    before = { beforeAt: cursor.key, beforeId: cursor.id };
  }
  const rows = await plainSql(db).run(conversationPage, {
    projectId,
    memberId,
    filter: input.filter,
    ...before,
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    conversations: page.map((row) => ({
      clientId: row.id,
      name: row.name,
      messenger: messengerLabel(row.clientType),
      platformId: row.platformId,
      lastMessageAt: row.lastMessageAt,
      lastMessage:
        row.lastId === null
          ? null
          : { text: previewText(row.lastText, row.lastAttachment), direction: row.lastDirection ?? 'in' },
      unread: row.unread,
      unreadCapped: row.unread >= UNREAD_CAP,
      assigned: row.assignedMemberId
        ? { memberId: row.assignedMemberId, name: row.assignedName ?? '', email: row.assignedEmail ?? '' }
        : null,
      paused: isBotPaused(row, now),
      waitingSince: row.waitingSince,
    })),
    nextCursor:
      rows.length > input.limit && last
        ? encodeCursor({ sort: CURSOR_SORT, key: last.lastMessageAt.toISOString(), id: last.id })
        : null,
  };
}

/** Messages of one conversation shown at once; older ones are on the client's profile. */
export const CONVERSATION_MESSAGES = 200;

/** One conversation: the client, its handoff state and assignee, and its latest messages, oldest first. */
export async function getConversation(
  db: PrismaClient,
  projectId: number,
  clientId: number,
  options: { now?: Date } = {},
) {
  const client = await db.client.findFirst({
    where: { id: clientId, projectId },
    select: {
      id: true,
      name: true,
      clientType: true,
      platformId: true,
      botPausedAt: true,
      botPausedUntil: true,
      waitingSince: true,
      assignedMember: { select: { id: true, name: true, email: true } },
    },
  });
  if (!client) throw notFound(`Client ${clientId} does not exist in this project.`);
  const { messages, olderCursor } = await historyPage(db, projectId, {
    clientId,
    limit: CONVERSATION_MESSAGES,
  });
  const paused = isBotPaused(client, options.now ?? new Date());
  return {
    client: {
      id: client.id,
      name: client.name,
      messenger: messengerLabel(client.clientType),
      platformId: client.platformId,
      assigned: client.assignedMember,
      paused,
      pausedUntil: paused ? client.botPausedUntil : null,
      waitingSince: client.waitingSince,
    },
    messages,
    hasOlder: olderCursor !== null,
  };
}

/** The member has seen the conversation up to this message of it. */
export async function markRead(
  db: PrismaClient,
  projectId: number,
  memberId: number,
  clientId: number,
  messageId: bigint,
) {
  await plainSql(db).run(markConversationRead, {
    projectId,
    memberId,
    clientId,
    messageId: String(messageId),
  });
}
