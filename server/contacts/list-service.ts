import { z } from 'zod';
import type { Db, PrismaClient } from '@/server/db/client-type';
import { DomainError, notFound, parseInput } from '@/server/errors';
import { type ClientFilterInput, clientFilterWhere } from './client-search';

/** Lists a project may have; each is picked by name in the app, so names are unique. */
export const MAX_LISTS = 1000;
export const MAX_LIST_NAME = 100;
/** Client ids written per statement when a filter or an import adds many. */
const CHUNK = 5000;

export const listNameInput = z
  .string()
  .trim()
  .min(1, 'Give the list a name.')
  .max(MAX_LIST_NAME, `A list name can be at most ${MAX_LIST_NAME} characters.`);

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

/** A name another list of the project already has (compared without case) is refused. */
async function requireFreeName(db: Db, projectId: number, name: string, exceptId?: number) {
  const taken = await db.clientList.findFirst({
    where: {
      projectId,
      name: { equals: name, mode: 'insensitive' },
      ...(exceptId ? { id: { not: exceptId } } : {}),
    },
    select: { id: true },
  });
  if (taken)
    throw new DomainError(
      'conflict',
      `A list named "${name}" already exists (id ${taken.id}); choose another name.`,
      'name',
    );
}

export async function createList(db: Db, projectId: number, rawName: string) {
  const name = parseInput(listNameInput, rawName);
  if ((await db.clientList.count({ where: { projectId } })) >= MAX_LISTS)
    throw new DomainError(
      'limit',
      `A project can have at most ${MAX_LISTS} lists; delete one you no longer use.`,
    );
  await requireFreeName(db, projectId, name);
  return db.clientList.create({ data: { projectId, name } });
}

export async function renameList(db: Db, projectId: number, listId: number, rawName: string) {
  const name = parseInput(listNameInput, rawName);
  await requireList(db, projectId, listId);
  await requireFreeName(db, projectId, name, listId);
  return db.clientList.update({ where: { id: listId }, data: { name } });
}

/** Deletes a list and its memberships (not the clients); returns how many members it had. */
export async function deleteList(db: PrismaClient, projectId: number, listId: number) {
  return db.$transaction(async (tx) => {
    await requireList(tx, projectId, listId);
    const members = await tx.clientListMember.count({ where: { projectId, listId } });
    await tx.clientList.delete({ where: { id: listId } });
    return { members };
  });
}

/** The project's lists by name, each with its member count. */
export async function projectLists(db: Db, projectId: number) {
  const [lists, counts] = await Promise.all([
    db.clientList.findMany({
      where: { projectId },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      select: { id: true, name: true, createdAt: true },
      take: MAX_LISTS,
    }),
    db.clientListMember.groupBy({ by: ['listId'], where: { projectId }, _count: { _all: true } }),
  ]);
  const size = new Map(counts.map((c) => [c.listId, c._count._all]));
  return lists.map((l) => ({ ...l, members: size.get(l.id) ?? 0 }));
}

/**
 * Adds clients known to be the project's, in statements of CHUNK ids; already listed ones are
 * skipped. Returns how many were added.
 */
export async function addKnownClients(
  db: Db,
  projectId: number,
  listId: number,
  clientIds: readonly number[],
) {
  let added = 0;
  for (let i = 0; i < clientIds.length; i += CHUNK)
    added += await writeListMembership(db, projectId, listId, clientIds.slice(i, i + CHUNK), true);
  return added;
}

/**
 * Adds every client a Clients-tab filter matches, chosen by the server from the filter (the
 * browser sends no ids), in one transaction. Returns how many were added.
 */
export async function addMatchingToList(
  db: PrismaClient,
  projectId: number,
  listId: number,
  filter: ClientFilterInput,
) {
  const where = clientFilterWhere(projectId, filter);
  return db.$transaction(
    async (tx) => {
      await requireList(tx, projectId, listId);
      let added = 0;
      let after = 0;
      for (;;) {
        const ids = await tx.client.findMany({
          where: { AND: [where, { id: { gt: after } }] },
          orderBy: { id: 'asc' },
          take: CHUNK,
          select: { id: true },
        });
        if (!ids.length) break;
        added += await writeListMembership(
          tx,
          projectId,
          listId,
          ids.map((c) => c.id),
          true,
        );
        after = ids.at(-1)!.id;
      }
      return added;
    },
    { timeout: 120_000 },
  );
}

/** Removes every client a Clients-tab filter matches from the list, in one statement. */
export async function removeMatchingFromList(
  db: Db,
  projectId: number,
  listId: number,
  filter: ClientFilterInput,
) {
  const where = clientFilterWhere(projectId, filter);
  await requireList(db, projectId, listId);
  const { count } = await db.clientListMember.deleteMany({ where: { projectId, listId, client: where } });
  return count;
}
