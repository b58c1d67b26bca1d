import type { Db, PrismaClient } from '@/server/db/client-type';
import { DomainError } from '@/server/errors';
import { groupIdFilter } from './client-lookup';

export const MAX_PAGE = 500;
export const MAX_DELETE = 500;

const publicFields = {
  id: true,
  platformId: true,
  groupId: true,
  clientType: true,
  name: true,
  tag: true,
  avatar: true,
  createdAt: true,
  currentBlockId: true,
  assignedMemberId: true,
} as const;

/** A client as the public API shows it. */
export function clientView(c: {
  id: number;
  platformId: string;
  groupId: string;
  clientType: number;
  name: string;
  tag: string;
  avatar: string;
  createdAt: Date;
  currentBlockId: number | null;
}) {
  return {
    client_id: c.id,
    platform_id: c.platformId,
    group_id: c.groupId,
    client_type: c.clientType,
    name: c.name,
    tag: c.tag,
    avatar: c.avatar,
    created_at: Math.floor(c.createdAt.getTime() / 1000),
    message_id: c.currentBlockId,
  };
}

export async function listClients(
  db: Db,
  projectId: number,
  options: { offset: number; limit: number; listId?: number },
) {
  const rows = await db.client.findMany({
    where: { projectId, ...(options.listId ? { lists: { some: { listId: options.listId } } } : {}) },
    orderBy: { id: 'asc' },
    skip: options.offset,
    take: Math.min(options.limit, MAX_PAGE),
    select: publicFields,
  });
  return rows.map(clientView);
}

export interface SubscriberFilter {
  page: number;
  tag?: string;
  groupId?: string;
  dateFrom?: Date;
  dateTo?: Date;
  clientType?: number;
}

export async function listSubscribers(db: Db, projectId: number, filter: SubscriberFilter) {
  const where = {
    projectId,
    subscribed: true,
    ...(filter.tag ? { tag: filter.tag } : {}),
    ...(filter.groupId ? { groupId: groupIdFilter(filter.groupId) } : {}),
    ...(filter.clientType !== undefined ? { clientType: filter.clientType } : {}),
    ...(filter.dateFrom || filter.dateTo ? { createdAt: { gte: filter.dateFrom, lte: filter.dateTo } } : {}),
  };
  const [total, rows] = await Promise.all([
    db.client.count({ where }),
    db.client.findMany({
      where,
      orderBy: { id: 'asc' },
      skip: (filter.page - 1) * MAX_PAGE,
      take: MAX_PAGE,
      select: publicFields,
    }),
  ]);
  return {
    total,
    page: filter.page,
    pages: Math.max(1, Math.ceil(total / MAX_PAGE)),
    clients: rows.map(clientView),
  };
}

/** Deletes clients of this project (with their history, deals and variables); ids of others are ignored. */
export async function deleteClients(db: PrismaClient, projectId: number, clientIds: readonly number[]) {
  if (clientIds.length > MAX_DELETE) {
    throw new DomainError(
      'limit',
      `At most ${MAX_DELETE} clients can be deleted per call; got ${clientIds.length}.`,
    );
  }
  const { count } = await db.client.deleteMany({ where: { projectId, id: { in: [...clientIds] } } });
  return count;
}
