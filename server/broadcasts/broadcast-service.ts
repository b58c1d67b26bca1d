import type { Attachment, Buttons } from '@/lib/schema';
import { MESSAGE_FROM } from '@/server/contacts/history-service';
import { requireList } from '@/server/contacts/list-service';
import type { PrismaClient } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { handleEvent } from '@/server/engine/handle-event';
import { DomainError } from '@/server/errors';

export const DEFAULT_SHIFT_SECONDS = 0.2;

export interface BroadcastInput {
  text: string;
  blockId?: number;
  attachments: Attachment[];
  buttons: Buttons | null;
  shiftSeconds: number;
  /** Recipients: these clients, or a list's members, or (neither) every subscribed client. */
  clientIds?: number[];
  listId?: number;
}

export interface BroadcastSendData {
  projectId: number;
  broadcastId: number;
  clientId: number;
}

/** Creates the broadcast and one send per recipient, spaced by `shift`; the caller queues the sends. */
export async function createBroadcast(
  db: PrismaClient,
  projectId: number,
  input: BroadcastInput,
  now = new Date(),
) {
  if (!input.text && !input.attachments.length && !input.blockId) {
    throw new DomainError('invalid', 'A broadcast needs a text, a file or a block (message_id).');
  }
  if (input.blockId && !(await db.block.count({ where: { projectId, id: input.blockId } }))) {
    throw new DomainError('not_found', `Block ${input.blockId} does not exist in this bot.`);
  }
  if (input.listId) await requireList(db, projectId, input.listId);
  const where: Prisma.ClientWhereInput = input.clientIds
    ? { projectId, id: { in: input.clientIds } }
    : input.listId
      ? { projectId, lists: { some: { listId: input.listId } } }
      : { projectId, subscribed: true };
  const recipients = await db.client.findMany({ where, select: { id: true }, orderBy: { id: 'asc' } });
  const broadcast = await db.$transaction(async (tx) => {
    const created = await tx.broadcast.create({
      data: {
        projectId,
        text: input.text,
        blockId: input.blockId ?? null,
        attachments: input.attachments as Prisma.InputJsonArray,
        buttons: (input.buttons ?? undefined) as Prisma.InputJsonValue | undefined,
        shiftSeconds: input.shiftSeconds,
        total: recipients.length,
        status: recipients.length ? 'running' : 'done',
        finishedAt: recipients.length ? null : now,
      },
    });
    await tx.broadcastRecipient.createMany({
      data: recipients.map((r) => ({ broadcastId: created.id, clientId: r.id, projectId })),
    });
    return created;
  });
  const sends = recipients.map((r, i) => ({
    data: { projectId, broadcastId: broadcast.id, clientId: r.id } satisfies BroadcastSendData,
    startAfter: new Date(now.getTime() + i * input.shiftSeconds * 1000),
    singletonKey: `broadcast-${broadcast.id}-${r.id}`,
  }));
  return { broadcast, sends };
}

/** A send whose answer is not recorded yet: the job is retried, the recipient stays pending. */
class UnconfirmedSend extends Error {}

/**
 * One recipient's send. The message is stored under a unique key and the recipient moves from
 * pending once, so a job run twice (after a crash) sends nothing twice and counts once.
 */
export async function sendBroadcastMessage(deps: EngineDeps, data: BroadcastSendData) {
  const db = deps.db;
  const recipient = await db.broadcastRecipient.findUnique({
    where: { broadcastId_clientId: { broadcastId: data.broadcastId, clientId: data.clientId } },
    include: { broadcast: true },
  });
  if (recipient?.status !== 'pending' || recipient.broadcast.status === 'cancelled') return;
  const b = recipient.broadcast;
  let status: 'sent' | 'failed' = 'sent';
  let error: string | null = null;
  try {
    const result = await handleEvent(
      deps,
      data.projectId,
      { clientId: data.clientId },
      b.blockId && !b.text
        ? { type: 'enter_block', blockId: b.blockId, messageFromOutside: MESSAGE_FROM.api }
        : {
            type: 'send',
            text: b.text,
            attachments: b.attachments as Attachment[],
            buttons: (b.buttons as Buttons | null) ?? null,
            messageFromOutside: MESSAGE_FROM.api,
            dedupeKey: `broadcast-${b.id}-${data.clientId}`,
          },
    );
    // Only confirmed sends count: a retried job finds its message stored by the first run.
    const key = `broadcast-${b.id}-${data.clientId}`;
    const messages = result.messages.length
      ? result.messages
      : await db.message.findMany({ where: { dedupeKey: key }, select: { delivered: true, error: true } });
    const failed = messages.find((m) => !m.delivered);
    if (failed && failed.error === null && !result.messages.length)
      throw new UnconfirmedSend(`The send to client ${data.clientId} has no answer yet.`);
    if (failed) {
      status = 'failed';
      error = failed.error;
    }
  } catch (e) {
    if (e instanceof UnconfirmedSend) throw e;
    status = 'failed';
    error = (e as Error).message;
  }
  await db.$transaction(async (tx) => {
    const { count } = await tx.broadcastRecipient.updateMany({
      where: { broadcastId: b.id, clientId: data.clientId, status: 'pending' },
      data: { status, error, sentAt: deps.now() },
    });
    if (!count) return;
    const updated = await tx.broadcast.update({
      where: { id: b.id },
      data: status === 'sent' ? { sent: { increment: 1 } } : { failed: { increment: 1 } },
    });
    if (updated.sent + updated.failed >= updated.total) {
      await tx.broadcast.update({ where: { id: b.id }, data: { status: 'done', finishedAt: deps.now() } });
    }
  });
}

export async function broadcastProgress(db: PrismaClient, projectId: number, broadcastId: number) {
  const b = await db.broadcast.findFirst({ where: { id: broadcastId, projectId } });
  if (!b) throw new DomainError('not_found', `Broadcast ${broadcastId} does not exist.`);
  return {
    id: b.id,
    status: b.status,
    total: b.total,
    sent: b.sent,
    failed: b.failed,
    pending: b.total - b.sent - b.failed,
  };
}
