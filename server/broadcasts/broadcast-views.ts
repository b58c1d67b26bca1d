import { describeFilter, recipientFilterSchema } from '@/lib/broadcasts/recipient-filter';
import { clientDisplayName } from '@/lib/client-display';
import { zonedParts } from '@/lib/formula/time-zone';
import type { Attachment, Buttons } from '@/lib/schema';
import { canManageProject, type MemberRole } from '@/lib/team/member-rules';
import { clientFilterOptions } from '@/server/contacts/client-filter-options';
import type { Db } from '@/server/db/client-type';
import { notFound } from '@/server/errors';
import { pendingOf } from './broadcast-service';

export const BROADCAST_PAGE = 50;
export const RECIPIENT_PAGE = 100;

/** Whether this member may send, pause and cancel broadcasts (docs/broadcasts.md, "Roles"). */
export async function maySendBroadcasts(db: Db, projectId: number, role: MemberRole) {
  if (canManageProject(role)) return true;
  const p = await db.project.findUnique({
    where: { id: projectId },
    select: { operatorsSendBroadcasts: true },
  });
  return p?.operatorsSendBroadcasts ?? false;
}

/** The rate so far (recipients a second since it started) and the seconds left at that rate. */
export function pace(
  b: {
    status: string;
    total: number;
    sent: number;
    failed: number;
    shiftSeconds: number;
    startedAt: Date | null;
  },
  now: Date,
) {
  const done = b.sent + b.failed;
  const elapsed = b.startedAt ? (now.getTime() - b.startedAt.getTime()) / 1000 : 0;
  const rate = elapsed > 0 && done > 0 ? done / elapsed : 0;
  const pending = pendingOf(b);
  if (b.status !== 'running' || !pending) return { rate, secondsLeft: null as number | null };
  // The shift bounds the rate from above: at 0.2 s no broadcast goes faster than 5 a second.
  const byShift = pending * b.shiftSeconds;
  const byRate = rate > 0 ? pending / rate : null;
  return { rate, secondsLeft: byRate === null ? byShift || null : Math.max(byRate, byShift) };
}

export async function listBroadcasts(db: Db, projectId: number, page: number) {
  const [total, rows, lists] = await Promise.all([
    db.broadcast.count({ where: { projectId } }),
    db.broadcast.findMany({
      where: { projectId },
      orderBy: { id: 'desc' },
      skip: page * BROADCAST_PAGE,
      take: BROADCAST_PAGE,
    }),
    db.clientList.findMany({ where: { projectId }, select: { id: true, name: true } }),
  ]);
  const listNames = new Map(lists.map((l) => [l.id, l.name]));
  return {
    total,
    pageSize: BROADCAST_PAGE,
    items: rows.map((b) => ({
      id: b.id,
      name: b.name || summary(b),
      source: b.source,
      status: b.status,
      total: b.total,
      sent: b.sent,
      failed: b.failed,
      pending: pendingOf(b),
      recipients: describeFilter(recipientFilterSchema.parse(b.filter), { lists: listNames }),
      createdAt: b.createdAt,
      scheduledAt: b.scheduledAt,
      startedAt: b.startedAt,
      finishedAt: b.finishedAt,
    })),
  };
}

function summary(b: { text: string; blockId: number | null; id: number }) {
  const text = b.text.trim().replace(/\s+/g, ' ');
  if (text) return text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return b.blockId ? `Block ${b.blockId}` : `Broadcast ${b.id}`;
}

export async function broadcastDetail(db: Db, projectId: number, broadcastId: number, now = new Date()) {
  const b = await db.broadcast.findFirst({ where: { id: broadcastId, projectId } });
  if (!b) throw notFound(`Broadcast ${broadcastId} does not exist in this project.`);
  const [block, lists] = await Promise.all([
    b.blockId ? db.block.findFirst({ where: { projectId, id: b.blockId }, select: { name: true } }) : null,
    db.clientList.findMany({ where: { projectId }, select: { id: true, name: true } }),
  ]);
  const filter = recipientFilterSchema.parse(b.filter);
  return {
    id: b.id,
    name: b.name || summary(b),
    source: b.source,
    status: b.status,
    text: b.text,
    blockId: b.blockId,
    blockName: block?.name ?? null,
    attachments: b.attachments as { type: string; url: string }[],
    buttons: b.buttons,
    shiftSeconds: b.shiftSeconds,
    recipients: describeFilter(filter, { lists: new Map(lists.map((l) => [l.id, l.name])) }),
    total: b.total,
    sent: b.sent,
    failed: b.failed,
    pending: pendingOf(b),
    cancelled: b.status === 'cancelled' ? Math.max(0, b.total - b.sent - b.failed) : 0,
    ...pace(b, now),
    createdAt: b.createdAt,
    scheduledAt: b.scheduledAt,
    startedAt: b.startedAt,
    finishedAt: b.finishedAt,
  };
}

/**
 * A draft as the compose form edits it: its own name (not the summary), its first attachment, its
 * buttons' texts, and its filter with the first-contact days of the project's time zone. Any
 * broadcast answers (its status says whether it is still a draft), of this project only.
 */
export async function broadcastDraft(db: Db, projectId: number, broadcastId: number) {
  const b = await db.broadcast.findFirst({ where: { id: broadcastId, projectId } });
  if (!b) throw notFound(`Broadcast ${broadcastId} does not exist in this project.`);
  const { timeZone } = await db.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { timeZone: true },
  });
  const day = (d: Date | undefined) => {
    if (!d) return undefined;
    const p = zonedParts(d, timeZone);
    return `${p.Y}-${p.m}-${p.d}`;
  };
  const f = recipientFilterSchema.parse(b.filter);
  const stored = b.buttons as Buttons | null;
  const buttons = (Array.isArray(stored) ? stored : (stored?.buttons ?? [])).filter((x) => x.text);
  return {
    id: b.id,
    status: b.status,
    name: b.name,
    text: b.text,
    blockId: b.blockId,
    attachment: (b.attachments as Attachment[])[0] ?? null,
    buttons: buttons.map((x) => x.text),
    inlineButtons: buttons.some((x) => x.type === 'inline'),
    shiftSeconds: b.shiftSeconds,
    filter: {
      listIds: f.listIds,
      excludeListIds: f.excludeListIds,
      clientTypes: f.clientTypes,
      crmStateId: f.crmStateId,
      blockId: f.blockId,
      variable: f.variable,
      firstContactAfter: day(f.firstContactAfter),
      firstContactBefore: day(f.firstContactBefore),
    },
  };
}

export type BroadcastDraft = Awaited<ReturnType<typeof broadcastDraft>>;

export async function broadcastRecipients(
  db: Db,
  projectId: number,
  broadcastId: number,
  options: { page: number; status?: 'pending' | 'sent' | 'failed' | 'cancelled' },
) {
  const b = await db.broadcast.findFirst({ where: { id: broadcastId, projectId }, select: { id: true } });
  if (!b) throw notFound(`Broadcast ${broadcastId} does not exist in this project.`);
  const where = { broadcastId, ...(options.status ? { status: options.status } : {}) };
  const [total, rows] = await Promise.all([
    db.broadcastRecipient.count({ where }),
    db.broadcastRecipient.findMany({
      where,
      orderBy: { clientId: 'asc' },
      skip: options.page * RECIPIENT_PAGE,
      take: RECIPIENT_PAGE,
      select: {
        clientId: true,
        status: true,
        error: true,
        sentAt: true,
        client: { select: { name: true, platformId: true, clientType: true } },
      },
    }),
  ]);
  return {
    total,
    pageSize: RECIPIENT_PAGE,
    items: rows.map((r) => ({
      clientId: r.clientId,
      name: clientDisplayName({ id: r.clientId, ...r.client }),
      clientType: r.client.clientType,
      status: r.status,
      error: r.error,
      sentAt: r.sentAt,
    })),
  };
}

/** What the compose form offers: the project's lists, CRM stages, messengers and blocks. */
export async function recipientOptions(db: Db, projectId: number) {
  const [options, blocks, project] = await Promise.all([
    clientFilterOptions(db, projectId),
    db.block.findMany({
      where: { projectId },
      select: { id: true, name: true },
      orderBy: { id: 'asc' },
      take: 2000,
    }),
    db.project.findUniqueOrThrow({
      where: { id: projectId },
      select: { timeZone: true, operatorsSendBroadcasts: true },
    }),
  ]);
  return {
    lists: options.lists,
    crmStates: options.crmStates,
    messengers: options.messengers,
    blocks: blocks.map((b) => ({ id: b.id, name: b.name || `Block ${b.id}` })),
    timeZone: project.timeZone,
    operatorsSendBroadcasts: project.operatorsSendBroadcasts,
  };
}
