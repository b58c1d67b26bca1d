import { z } from 'zod';
import { type HistoryMessage, MESSAGE_FROM } from '@/lib/history-message';
import { type Attachment, attachmentSchema, type Buttons, buttonsSchema } from '@/lib/schema';
import { buttonList } from '@/lib/schema/buttons';
import type { Db } from '@/server/db/client-type';
import type { Message, Prisma } from '@/server/db/generated/client';
import { notFound } from '@/server/errors';

export { MESSAGE_FROM };

export interface StoredMessageInput {
  projectId: number;
  clientId: number;
  direction: 'in' | 'out';
  text: string;
  attachments?: Attachment[];
  buttons?: Buttons | null;
  blockId?: number | null;
  messageFromOutside?: number;
  delivered?: boolean;
  error?: string | null;
  dedupeKey?: string | null;
}

export async function storeMessage(db: Db, input: StoredMessageInput) {
  return db.message.create({
    data: {
      projectId: input.projectId,
      clientId: input.clientId,
      direction: input.direction,
      text: input.text,
      attachments: (input.attachments ?? []) as Prisma.InputJsonArray,
      buttons: (input.buttons ?? undefined) as Prisma.InputJsonValue | undefined,
      blockId: input.blockId ?? null,
      messageFromOutside: input.messageFromOutside ?? MESSAGE_FROM.client,
      delivered: input.delivered ?? true,
      error: input.error ?? null,
      status:
        input.direction === 'in'
          ? null
          : (input.delivered ?? true)
            ? 'delivered'
            : input.error
              ? 'failed'
              : 'queued',
      dedupeKey: input.dedupeKey ?? null,
    },
  });
}

export async function getHistory(
  db: Db,
  projectId: number,
  clientId: number,
  /** `newest`: the last `limit` messages (still oldest first) rather than the first. */
  options: { limit?: number; afterId?: bigint; newest?: boolean } = {},
) {
  const rows = await db.message.findMany({
    where: { projectId, clientId, ...(options.afterId ? { id: { gt: options.afterId } } : {}) },
    orderBy: { id: options.newest ? 'desc' : 'asc' },
    take: options.limit ?? 1000,
  });
  return options.newest ? rows.reverse() : rows;
}

/**
 * Deletes a client's messages and the files they sent (widget uploads live only in their
 * messages, so a cleared history leaves none behind); answers how many messages went.
 */
export async function clearHistory(db: Db, projectId: number, clientId: number) {
  const [{ count }] = await db.$transaction([
    db.message.deleteMany({ where: { projectId, clientId } }),
    db.storedFile.deleteMany({ where: { projectId, clientId } }),
  ]);
  return count;
}

export const HISTORY_PAGE = 50;

/** The UI's history paging: newest first by id, `before` the oldest id already shown. */
export const historyPageInput = z.object({
  clientId: z.number().int().positive(),
  before: z
    .string()
    .regex(/^\d{1,19}$/, { error: 'before is a message id' })
    .optional(),
  limit: z.number().int().min(1).max(200).default(HISTORY_PAGE),
});

const storedAttachments = z.array(attachmentSchema).catch([]);
const storedButtons = buttonsSchema.nullable().catch(null);

/** What a message is read with for `toHistoryMessage`: the team member who sent it. */
export const WITH_SENDER = { senderMember: { select: { name: true, email: true } } } as const;

/** A stored message as the UI shows it (the profile's history, the inbox and its live stream). */
export function toHistoryMessage(
  m: Message & { senderMember: { name: string; email: string } | null },
): HistoryMessage {
  return {
    id: m.id.toString(),
    direction: m.direction,
    text: m.text,
    attachments: storedAttachments.parse(m.attachments),
    buttons: buttonList(storedButtons.parse(m.buttons) ?? undefined),
    blockId: m.blockId,
    messageFromOutside: m.messageFromOutside,
    operator: m.senderMember ? m.senderMember.name || m.senderMember.email : null,
    delivered: m.delivered,
    error: m.error,
    status: m.status,
    createdAt: m.createdAt,
  };
}

/**
 * A page of a client's history for the UI, oldest first, going backwards from `before` (keyset
 * by message id, so a long history pages in constant time); `olderCursor` is null on the first message.
 */
export async function historyPage(
  db: Db,
  projectId: number,
  input: z.input<typeof historyPageInput>,
): Promise<{ messages: HistoryMessage[]; olderCursor: string | null }> {
  const { clientId, before, limit } = historyPageInput.parse(input);
  const client = await db.client.findFirst({ where: { id: clientId, projectId }, select: { id: true } });
  if (!client) throw notFound(`Client ${clientId} does not exist in this project.`);
  const rows = await db.message.findMany({
    where: { projectId, clientId, ...(before ? { id: { lt: BigInt(before) } } : {}) },
    orderBy: { id: 'desc' },
    take: limit + 1,
    include: WITH_SENDER,
  });
  const page = rows.slice(0, limit).reverse();
  return {
    messages: page.map(toHistoryMessage),
    olderCursor: rows.length > limit ? page[0]!.id.toString() : null,
  };
}
