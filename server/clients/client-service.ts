import type { Db } from '@/server/db/client-type';
import { notFound } from '@/server/errors';

/** Who a message is from: the client's identity in its channel (bot-semantics §8 client types). */
export interface ClientRef {
  clientType: number;
  /** The connected bot/channel; empty for telephony. */
  groupId: string;
  platformId: string;
  name?: string;
  avatar?: string;
  tag?: string;
}

/** The client with this identity in the project, created on first contact. */
export async function resolveClient(db: Db, projectId: number, ref: ClientRef) {
  const groupId = ref.clientType === 13 ? '' : ref.groupId;
  return db.client.upsert({
    where: {
      projectId_clientType_groupId_platformId: {
        projectId,
        clientType: ref.clientType,
        groupId,
        platformId: ref.platformId,
      },
    },
    create: {
      projectId,
      clientType: ref.clientType,
      groupId,
      platformId: ref.platformId,
      name: ref.name ?? '',
      avatar: ref.avatar ?? '',
      tag: ref.tag ?? '',
    },
    update: {},
  });
}

export async function getClient(db: Db, projectId: number, clientId: number) {
  const client = await db.client.findFirst({ where: { id: clientId, projectId } });
  if (!client) throw notFound(`Client ${clientId} does not exist in this project.`);
  return client;
}

/** The client's open deal (the one collecting variables), created when there is none. */
export async function openDeal(db: Db, projectId: number, clientId: number) {
  const open = await db.deal.findFirst({
    where: { projectId, clientId, closedAt: null },
    orderBy: { id: 'desc' },
  });
  return open ?? db.deal.create({ data: { projectId, clientId } });
}
