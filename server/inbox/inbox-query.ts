import { z } from 'zod';
import { clientDisplayName, messengerLabel } from '@/lib/client-display';
import { messageSender } from '@/lib/history-message';
import { isBotPaused } from '@/lib/inbox/pause';
import { decodeCursor, encodeCursor } from '@/lib/keyset-cursor';
import { historyPage } from '@/server/contacts/history-service';
import type { PrismaClient } from '@/server/db/client-type';
import {
  conversationPage,
  conversationWaiting,
  markConversationRead,
  UNREAD_CAP,
  waitingCount,
} from '@/server/db/inbox-sql';
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
 * client's last message), with the last message (and who sent it, unless the client did), the
 * member's unread count (capped at `UNREAD_CAP`: "99+") and the handoff state; the cursor of
 * the next page, and how many conversations wait for an operator.
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
  const sql = plainSql(db);
  const [rows, [waiting]] = await Promise.all([
    sql.run(conversationPage, {
      projectId,
      memberId,
      filter: input.filter,
      ...before,
      now,
      limit: input.limit + 1,
    }),
    sql.run(waitingCount, { projectId, now }),
  ]);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    conversations: page.map((row) => ({
      clientId: row.id,
      name: row.name,
      displayName: clientDisplayName(row),
      messenger: messengerLabel(row.clientType),
      platformId: row.platformId,
      lastMessageAt: row.lastMessageAt,
      lastMessage: row.lastId === null ? null : lastMessage(row),
      unread: row.unread,
      unreadCapped: row.unread >= UNREAD_CAP,
      assigned: row.assignedMemberId
        ? { memberId: row.assignedMemberId, name: row.assignedName ?? '', email: row.assignedEmail ?? '' }
        : null,
      paused: isBotPaused(row, now),
      waitingSince: row.waitingSince,
      waiting: row.waiting,
    })),
    waitingCount: waiting.count,
    nextCursor:
      rows.length > input.limit && last
        ? encodeCursor({ sort: CURSOR_SORT, key: last.lastMessageAt.toISOString(), id: last.id })
        : null,
  };
}

/** The list's preview of a conversation's last message: `from` names its sender unless the client wrote it. */
function lastMessage(row: {
  lastText: string | null;
  lastAttachment: string | null;
  lastDirection: string | null;
  lastFrom: number | null;
  lastOperator: string | null;
}) {
  const direction = row.lastDirection === 'out' ? ('out' as const) : ('in' as const);
  const sender = messageSender(
    { direction, messageFromOutside: row.lastFrom ?? 0, operator: row.lastOperator },
    '',
  );
  return {
    text: previewText(row.lastText, row.lastAttachment),
    direction,
    from: sender.kind === 'client' ? null : sender.label,
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
      currentBlockId: true,
      assignedMember: { select: { id: true, name: true, email: true } },
    },
  });
  if (!client) throw notFound(`Client ${clientId} does not exist in this project.`);
  const { messages, olderCursor } = await historyPage(db, projectId, {
    clientId,
    limit: CONVERSATION_MESSAGES,
  });
  const now = options.now ?? new Date();
  const paused = isBotPaused(client, now);
  const [{ waiting }] = await plainSql(db).run(conversationWaiting, { projectId, clientId, now });
  return {
    client: {
      id: client.id,
      name: client.name,
      displayName: clientDisplayName(client),
      messenger: messengerLabel(client.clientType),
      platformId: client.platformId,
      assigned: client.assignedMember,
      paused,
      pausedUntil: paused ? client.botPausedUntil : null,
      waitingSince: client.waitingSince,
      waiting,
      /** The buttons the client can press now follow from it (lib/current-buttons.ts). */
      currentBlockId: client.currentBlockId,
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
