import type { Db } from '@/server/db/client-type';
import { DomainError, notFound } from '@/server/errors';

export async function requireList(db: Db, projectId: number, listId: number) {
  const list = await db.clientList.findFirst({ where: { id: listId, projectId } });
  if (!list) throw notFound(`List ${listId} does not exist in this project.`);
  return list;
}

/** Only clients of the same project can be listed; unknown ids are reported, none is added. */
async function requireClients(db: Db, projectId: number, clientIds: readonly number[]) {
  const found = await db.client.findMany({
    where: { projectId, id: { in: [...clientIds] } },
    select: { id: true },
  });
  const known = new Set(found.map((c) => c.id));
  const missing = clientIds.filter((id) => !known.has(id));
  if (missing.length) {
    throw new DomainError(
      'not_found',
      `No client with id ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''} in this project.`,
    );
  }
}

/**
 * Adds clients to a list or removes them (the list and the clients are known to be the
 * project's): the one write of list membership, for the API, the engine and the UI alike.
 */
export async function writeListMembership(
  db: Db,
  projectId: number,
  listId: number,
  clientIds: readonly number[],
  member: boolean,
) {
  const { count } = member
    ? await db.clientListMember.createMany({
        data: clientIds.map((clientId) => ({ listId, clientId, projectId })),
        skipDuplicates: true,
      })
    : await db.clientListMember.deleteMany({
        where: { projectId, listId, clientId: { in: [...clientIds] } },
      });
  return count;
}

export async function addToList(db: Db, projectId: number, listId: number, clientIds: readonly number[]) {
  await requireList(db, projectId, listId);
  await requireClients(db, projectId, clientIds);
  return writeListMembership(db, projectId, listId, clientIds, true);
}

export async function removeFromList(
  db: Db,
  projectId: number,
  listId: number,
  clientIds: readonly number[],
) {
  await requireList(db, projectId, listId);
  return writeListMembership(db, projectId, listId, clientIds, false);
}

export async function isInList(db: Db, projectId: number, listId: number, clientId: number) {
  return (await db.clientListMember.count({ where: { projectId, listId, clientId } })) > 0;
}

export async function listSize(db: Db, projectId: number, listId: number) {
  await requireList(db, projectId, listId);
  return db.clientListMember.count({ where: { projectId, listId } });
}

export async function createList(db: Db, projectId: number, name: string) {
  return db.clientList.create({ data: { projectId, name } });
}
