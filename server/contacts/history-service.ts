import type { Attachment, Buttons } from '@/lib/schema';
import type { Db } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';

/** bot-semantics §3: where a message came from. */
export const MESSAGE_FROM = { client: 0, api: 1, crm: 2, callback: 3, telephony: 5 } as const;

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
      dedupeKey: input.dedupeKey ?? null,
    },
  });
}

export async function getHistory(
  db: Db,
  projectId: number,
  clientId: number,
  options: { limit?: number; afterId?: bigint } = {},
) {
  return db.message.findMany({
    where: { projectId, clientId, ...(options.afterId ? { id: { gt: options.afterId } } : {}) },
    orderBy: { id: 'asc' },
    take: options.limit ?? 1000,
  });
}

export async function clearHistory(db: Db, projectId: number, clientId: number) {
  const { count } = await db.message.deleteMany({ where: { projectId, clientId } });
  return count;
}
