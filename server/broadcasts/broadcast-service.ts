import {
  type RecipientFilter,
  type RecipientFilterInput,
  recipientFilterSchema,
} from '@/lib/broadcasts/recipient-filter';
import type { Attachment, Buttons } from '@/lib/schema';
import { MESSAGE_FROM } from '@/server/contacts/history-service';
import { requireList } from '@/server/contacts/list-service';
import { cancelPendingRecipients, countRecipients, insertRecipients } from '@/server/db/broadcast-sql';
import type { Db, PrismaClient } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { handleEvent } from '@/server/engine/handle-event';
import { DomainError, notFound } from '@/server/errors';
import { publishedBlockExists } from '@/server/versions/bot-versions';

export const DEFAULT_SHIFT_SECONDS = 0.2;
/** Recipients queued per step of the dispatcher. */
export const DISPATCH_BATCH = 500;
/** The dispatcher keeps at most this many sends queued ahead, and at most this far ahead. */
export const MAX_QUEUED_AHEAD = 2000;
export const LEAD_SECONDS = 60;

export interface BroadcastInput {
  text: string;
  blockId?: number;
  attachments: Attachment[];
  buttons: Buttons | null;
  shiftSeconds: number;
  /** The API's recipients: these clients, or a list's members, or (neither) every subscribed client. */
  clientIds?: number[];
  listId?: number;
  /** The screen's recipients (merged with clientIds and listId above). */
  filter?: RecipientFilterInput;
  name?: string;
  source?: 'api' | 'app';
  /** now (default), at `scheduledAt`, or kept as a draft. */
  mode?: 'now' | 'schedule' | 'draft';
  scheduledAt?: Date;
}

export interface BroadcastSendData {
  projectId: number;
  broadcastId: number;
  clientId: number;
  /** The broadcast's epoch when queued; a send of an older epoch (before a pause) does nothing. */
  epoch?: number;
}

export interface BroadcastDispatchData {
  projectId: number;
  broadcastId: number;
  epoch: number;
}

export type QueuedSend = { data: BroadcastSendData; startAfter: Date; singletonKey: string };

/** The recipient filter, checked: every list, stage and block it names is the project's. */
export async function checkRecipientFilter(
  db: Db,
  projectId: number,
  input: RecipientFilterInput,
): Promise<RecipientFilter> {
  const parsed = recipientFilterSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ['recipients', ...(issue?.path ?? [])].join('.');
    throw new DomainError('invalid', `${field}: ${issue?.message}`, field);
  }
  const f = parsed.data;
  const listIds = [...new Set([...f.listIds, ...f.excludeListIds])];
  if (listIds.length) {
    const found = await db.clientList.findMany({
      where: { projectId, id: { in: listIds } },
      select: { id: true },
    });
    const missing = listIds.filter((id) => !found.some((l) => l.id === id));
    if (missing.length)
      throw new DomainError(
        'not_found',
        `List ${missing.join(', ')} does not exist in this project.`,
        'recipients.lists',
      );
  }
  if (f.crmStateId && !(await db.crmState.count({ where: { projectId, id: f.crmStateId } })))
    throw new DomainError(
      'not_found',
      `CRM stage ${f.crmStateId} does not exist in this project.`,
      'recipients.crmStateId',
    );
  if (f.blockId && !(await publishedBlockExists(db, projectId, f.blockId)))
    throw new DomainError(
      'not_found',
      `Block ${f.blockId} is not in the published bot.`,
      'recipients.blockId',
    );
  if (f.firstContactAfter && f.firstContactBefore && f.firstContactAfter >= f.firstContactBefore)
    throw new DomainError(
      'invalid',
      'recipients.firstContactBefore: must be later than "first contact after", or no client matches.',
      'recipients.firstContactBefore',
    );
  return f;
}

/** How many clients a filter selects now: the count the screen shows before sending. */
export async function previewRecipients(db: Db, projectId: number, input: RecipientFilterInput) {
  return countRecipients(db, projectId, await checkRecipientFilter(db, projectId, input));
}

function filterOf(input: BroadcastInput): RecipientFilterInput {
  const f = { ...(input.filter ?? {}) };
  if (input.clientIds) f.clientIds = input.clientIds;
  if (input.listId) f.listIds = [...(f.listIds ?? []), input.listId];
  return f;
}

/**
 * A broadcast's input checked, as creating and editing one check it (the same errors, naming the
 * field): its message, shift, block, list and recipient filter, and the time when scheduled.
 */
async function checkBroadcastInput(db: Db, projectId: number, input: BroadcastInput, now: Date) {
  const mode = input.mode ?? 'now';
  if (mode !== 'draft' && !input.text.trim() && !input.attachments.length && !input.blockId) {
    throw new DomainError(
      'invalid',
      'text: write a message, attach a file or pick a block (message_id).',
      'text',
    );
  }
  if (!(input.shiftSeconds >= 0 && input.shiftSeconds <= 3600))
    throw new DomainError('invalid', 'shift: must be between 0 and 3600 seconds.', 'shift');
  if (input.blockId && !(await publishedBlockExists(db, projectId, input.blockId))) {
    throw new DomainError(
      'not_found',
      `Block ${input.blockId} is not in the published bot: publish it first, or pick another.`,
      'blockId',
    );
  }
  if (input.listId) await requireList(db, projectId, input.listId);
  const filter = await checkRecipientFilter(db, projectId, filterOf(input));
  if (mode === 'schedule') {
    if (!input.scheduledAt || Number.isNaN(input.scheduledAt.getTime()))
      throw new DomainError('invalid', 'scheduledAt: pick the date and time to send at.', 'scheduledAt');
    if (input.scheduledAt.getTime() <= now.getTime())
      throw new DomainError(
        'invalid',
        'scheduledAt: this time has passed; pick a later one or send now.',
        'scheduledAt',
      );
  }
  const content = {
    text: input.text,
    blockId: input.blockId ?? null,
    attachments: input.attachments as Prisma.InputJsonArray,
    shiftSeconds: input.shiftSeconds,
    filter: filter as unknown as Prisma.InputJsonObject,
  };
  return { mode, filter, content, name: input.name?.trim().slice(0, 200) ?? '' };
}

/**
 * Creates a broadcast: a draft, a scheduled one (its recipients are chosen when it starts), or
 * one that starts now, its recipients recorded by one INSERT ... SELECT. The caller queues the
 * dispatcher (broadcast-jobs.ts); nothing here holds the recipients in memory.
 */
export async function createBroadcast(
  db: PrismaClient,
  projectId: number,
  input: BroadcastInput,
  now = new Date(),
) {
  const { mode, filter, content, name } = await checkBroadcastInput(db, projectId, input, now);
  const app = input.source === 'app';
  const base = {
    ...content,
    projectId,
    name,
    source: input.source ?? 'api',
    buttons: (input.buttons ?? undefined) as Prisma.InputJsonValue | undefined,
  };
  if (mode === 'draft') return db.broadcast.create({ data: { ...base, status: 'draft' } });
  if (mode === 'schedule') {
    const count = await countRecipients(db, projectId, filter);
    if (!count) throw zeroRecipients();
    return db.broadcast.create({
      data: { ...base, status: 'scheduled', scheduledAt: input.scheduledAt, total: count },
    });
  }
  return db.$transaction(
    async (tx) => {
      const created = await tx.broadcast.create({
        data: { ...base, status: 'running', startedAt: now, nextSendAt: now },
      });
      const total = await insertRecipients(tx, projectId, created.id, filter);
      // The API's broadcast to nobody is answered with 0 recipients, as before; the screen refuses it.
      if (!total && app) throw zeroRecipients();
      return tx.broadcast.update({
        where: { id: created.id },
        data: total ? { total } : { status: 'done', finishedAt: now },
      });
    },
    { timeout: 120_000 },
  );
}

/**
 * Saves a draft's new content, checked as creating one checks it, and keeps it a draft, schedules
 * it or starts it now (`input.mode`), in one transaction: refused (nothing changed) when the input
 * is bad, when nobody matches, or when the broadcast is no longer a draft (sent or cancelled
 * meanwhile by another member). The caller queues the dispatcher (broadcast-jobs.ts).
 */
export async function updateDraft(
  db: PrismaClient,
  projectId: number,
  broadcastId: number,
  input: BroadcastInput,
  now = new Date(),
) {
  const existing = await db.broadcast.findFirst({
    where: { id: broadcastId, projectId },
    select: { status: true },
  });
  if (!existing) throw notFound(`Broadcast ${broadcastId} does not exist in this project.`);
  const notDraft = (status: string) =>
    new DomainError(
      'conflict',
      `Broadcast ${broadcastId} is ${status}, no longer a draft: only a draft can be edited (reload its page).`,
      'status',
    );
  if (existing.status !== 'draft') throw notDraft(existing.status);
  const { mode, filter, content, name } = await checkBroadcastInput(db, projectId, input, now);
  return db.$transaction(
    async (tx) => {
      // Only while it is a draft: the row locked, a concurrent send or cancel waits for this one.
      const { count } = await tx.broadcast.updateMany({
        where: { id: broadcastId, projectId, status: 'draft' },
        data: {
          ...content,
          name,
          buttons: (input.buttons ?? null) as Prisma.InputJsonValue,
          scheduledAt: null,
        },
      });
      if (!count) {
        const b = await tx.broadcast.findFirst({ where: { id: broadcastId, projectId } });
        if (!b) throw notFound(`Broadcast ${broadcastId} does not exist in this project.`);
        throw notDraft(b.status);
      }
      if (mode === 'schedule') {
        const total = await countRecipients(tx, projectId, filter);
        if (!total) throw zeroRecipients();
        return tx.broadcast.update({
          where: { id: broadcastId },
          data: { status: 'scheduled', scheduledAt: input.scheduledAt, total },
        });
      }
      if (mode === 'now') return (await beginIn(tx, projectId, broadcastId, now))!;
      return tx.broadcast.findUniqueOrThrow({ where: { id: broadcastId } });
    },
    { timeout: 120_000 },
  );
}

const zeroRecipients = () =>
  new DomainError(
    'invalid',
    'recipients: no client matches these recipients; widen the filter (the count shows how many match).',
    'recipients',
  );

/**
 * A scheduled broadcast whose time has come, or a draft sent now: its recipients recorded and
 * its status running (done at once when nobody matches any more).
 */
export async function beginBroadcast(
  db: PrismaClient,
  projectId: number,
  broadcastId: number,
  now = new Date(),
) {
  return db.$transaction((tx) => beginIn(tx, projectId, broadcastId, now), { timeout: 120_000 });
}

async function beginIn(tx: Db, projectId: number, broadcastId: number, now: Date) {
  // The row locked first (its cursor is 0 until it runs): an edit of the draft saved meanwhile is
  // read whole, its recipients chosen by its new filter, or this one waits for it.
  await tx.broadcast.updateMany({
    where: { id: broadcastId, projectId, status: { in: ['scheduled', 'draft'] } },
    data: { cursor: 0 },
  });
  const b = await tx.broadcast.findFirst({ where: { id: broadcastId, projectId } });
  if (!b || (b.status !== 'scheduled' && b.status !== 'draft')) return b;
  const filter = recipientFilterSchema.parse(b.filter);
  const draft = b.status === 'draft';
  if (draft && !b.text.trim() && !(b.attachments as unknown[]).length && !b.blockId)
    throw new DomainError('invalid', 'text: write a message, attach a file or pick a block.', 'text');
  await tx.broadcastRecipient.deleteMany({ where: { broadcastId } });
  const total = await insertRecipients(tx, projectId, broadcastId, filter);
  if (!total && draft) throw zeroRecipients();
  return tx.broadcast.update({
    where: { id: broadcastId },
    data: total
      ? { status: 'running', total, startedAt: now, nextSendAt: now, cursor: 0 }
      : { status: 'done', total: 0, startedAt: now, finishedAt: now },
  });
}

/**
 * One step of a running broadcast's dispatcher: queues the next batches of pending recipients,
 * each due `shift` after the one before, while fewer than MAX_QUEUED_AHEAD sends (and under
 * LEAD_SECONDS of them) wait. Answers when to run again, or null when every recipient is queued
 * (or the broadcast is paused, cancelled, done, or of a newer epoch).
 */
export async function dispatchStep(
  db: PrismaClient,
  data: BroadcastDispatchData,
  enqueueSends: (sends: QueuedSend[]) => Promise<void>,
  now = () => new Date(),
): Promise<Date | null> {
  for (;;) {
    const b = await db.broadcast.findFirst({ where: { id: data.broadcastId, projectId: data.projectId } });
    if (b?.status !== 'running' || b.epoch !== data.epoch) return null;
    const at = now();
    const nextSendAt = b.nextSendAt && b.nextSendAt > at ? b.nextSendAt : at;
    const ahead = await db.broadcastRecipient.count({
      where: { broadcastId: b.id, status: 'pending', clientId: { lte: b.cursor } },
    });
    const secondsAhead = (nextSendAt.getTime() - at.getTime()) / 1000;
    if (ahead >= MAX_QUEUED_AHEAD || secondsAhead > LEAD_SECONDS) {
      const wait = Math.max(1, secondsAhead - LEAD_SECONDS / 2, ahead >= MAX_QUEUED_AHEAD ? 1 : 0);
      return new Date(at.getTime() + wait * 1000);
    }
    const rows = await db.broadcastRecipient.findMany({
      where: { broadcastId: b.id, status: 'pending', clientId: { gt: b.cursor } },
      orderBy: { clientId: 'asc' },
      take: DISPATCH_BATCH,
      select: { clientId: true },
    });
    if (!rows.length) return null;
    const shiftMs = b.shiftSeconds * 1000;
    await enqueueSends(
      rows.map((r, i) => ({
        data: { projectId: b.projectId, broadcastId: b.id, clientId: r.clientId, epoch: b.epoch },
        startAfter: new Date(nextSendAt.getTime() + i * shiftMs),
        singletonKey: `broadcast-${b.id}-${b.epoch}-${r.clientId}`,
      })),
    );
    const { count } = await db.broadcast.updateMany({
      where: { id: b.id, epoch: data.epoch, status: 'running' },
      data: {
        cursor: rows[rows.length - 1]?.clientId ?? b.cursor,
        nextSendAt: new Date(nextSendAt.getTime() + rows.length * shiftMs),
      },
    });
    if (!count || rows.length < DISPATCH_BATCH) return null;
  }
}

export type BroadcastControl = 'pause' | 'resume' | 'cancel';

/**
 * Pause, resume or cancel. Pausing bumps the epoch: the sends already queued find it changed and
 * do nothing, their recipients stay pending; resuming bumps it again and restarts the
 * dispatcher from the first pending recipient. Cancelling marks the pending recipients cancelled.
 * Answers the broadcast, and whether the dispatcher must be queued (resume, or a draft sent).
 */
export async function controlBroadcast(
  db: PrismaClient,
  projectId: number,
  broadcastId: number,
  action: BroadcastControl,
  now = new Date(),
) {
  const b = await db.broadcast.findFirst({ where: { id: broadcastId, projectId } });
  if (!b) throw notFound(`Broadcast ${broadcastId} does not exist in this project.`);
  const refuse = (why: string) => new DomainError('conflict', `Broadcast ${broadcastId} ${why}.`, 'status');
  if (action === 'pause') {
    const { count } = await db.broadcast.updateMany({
      where: { id: b.id, status: 'running' },
      data: { status: 'paused', epoch: { increment: 1 } },
    });
    if (!count) throw refuse(`is ${b.status}: only a running broadcast can be paused`);
  } else if (action === 'resume') {
    const { count } = await db.broadcast.updateMany({
      where: { id: b.id, status: 'paused' },
      data: { status: 'running', epoch: { increment: 1 }, cursor: 0, nextSendAt: now },
    });
    if (!count) throw refuse(`is ${b.status}: only a paused broadcast can be resumed`);
  } else {
    // Recipients first, then the broadcast: the order a send locks them in (its recipient, then
    // the broadcast's counters), so a cancel amid sends never deadlocks with them.
    const done = await db.$transaction(async (tx) => {
      const open: Prisma.BroadcastWhereInput = {
        id: b.id,
        status: { in: ['running', 'paused', 'scheduled', 'draft', 'pending'] },
      };
      if (!(await tx.broadcast.count({ where: open }))) return 0;
      await cancelPendingRecipients(tx, b.id);
      const { count } = await tx.broadcast.updateMany({
        where: open,
        data: { status: 'cancelled', finishedAt: now, epoch: { increment: 1 } },
      });
      return count;
    });
    if (!done) throw refuse(`is already ${b.status}`);
  }
  return db.broadcast.findUniqueOrThrow({ where: { id: b.id } });
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
  if (recipient?.status !== 'pending') return;
  const b = recipient.broadcast;
  // Paused, cancelled, or queued before a pause (an older epoch): the dispatcher queues it again.
  if (b.status !== 'running' || (data.epoch ?? 0) !== b.epoch) return;
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
      await tx.broadcast.updateMany({
        where: { id: b.id, status: { in: ['running', 'paused'] } },
        data: { status: 'done', finishedAt: deps.now() },
      });
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
    pending: pendingOf(b),
  };
}

/** Recipients neither sent nor failed; none once the broadcast is cancelled or done. */
export function pendingOf(b: { total: number; sent: number; failed: number; status: string }) {
  return b.status === 'cancelled' || b.status === 'done' ? 0 : Math.max(0, b.total - b.sent - b.failed);
}
