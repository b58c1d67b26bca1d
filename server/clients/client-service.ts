import type { Db } from '@/server/db/client-type';
import { type Sql, SqlParams } from '@/server/db/raw-sql';
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

/** The unique identity of a client: telephony numbers are one client whatever the line. */
function clientKey(projectId: number, ref: ClientRef) {
  return {
    projectId,
    clientType: ref.clientType,
    groupId: ref.clientType === 13 ? '' : ref.groupId,
    platformId: ref.platformId,
  };
}

/** The client with this identity in the project, created on first contact. */
export async function resolveClient(db: Db, projectId: number, ref: ClientRef) {
  const key = clientKey(projectId, ref);
  return db.client.upsert({
    where: { projectId_clientType_groupId_platformId: key },
    create: { ...key, name: ref.name ?? '', avatar: ref.avatar ?? '', tag: ref.tag ?? '' },
    update: {},
  });
}

/** Who an event is for: a known client, or an identity resolved (and created) on the way. */
export type ClientTarget = { clientId: number } | { ref: ClientRef };

export interface LockedClient {
  id: number;
  projectId: number;
  platformId: string;
  groupId: string;
  clientType: number;
  name: string;
  createdAt: Date;
  currentBlockId: number | null;
}

/** The columns of a `LockedClient`, from the client row aliased `c`. */
export const LOCKED_CLIENT_COLUMNS = `c.id, c."projectId", c."platformId", c."groupId", c."clientType", c.name, c."createdAt", c."currentBlockId"`;

export const lockedClient = (row: Record<string, unknown>): LockedClient => ({
  id: row.id as number,
  projectId: row.projectId as number,
  platformId: row.platformId as string,
  groupId: row.groupId as string,
  clientType: row.clientType as number,
  name: row.name as string,
  createdAt: new Date(row.createdAt as string),
  currentBlockId: row.currentBlockId as number | null,
});

/** The condition picking the target's client row, aliased `c`. */
export function clientCondition(params: SqlParams, projectId: number, target: ClientTarget): string {
  const project = `c."projectId" = ${params.add(projectId)}::int`;
  if ('clientId' in target) return `c.id = ${params.add(target.clientId)}::int AND ${project}`;
  const key = clientKey(projectId, target.ref);
  return `${project} AND c."clientType" = ${params.add(key.clientType)}::int
    AND c."groupId" = ${params.add(key.groupId)}::text AND c."platformId" = ${params.add(key.platformId)}::text`;
}

/**
 * Locks the client's row until the transaction ends, so events of one client run one at a
 * time; a new identity is created first. Reads that must see the previous event's writes go
 * in later statements: a statement's snapshot is taken before it waits for the lock.
 */
export async function lockClient(sql: Sql, projectId: number, target: ClientTarget): Promise<LockedClient> {
  const find = async () => {
    const params = new SqlParams();
    const where = clientCondition(params, projectId, target);
    const [row] = await sql.query(
      `SELECT ${LOCKED_CLIENT_COLUMNS} FROM "Client" c WHERE ${where} FOR UPDATE`,
      params.values,
    );
    return row;
  };
  const found = await find();
  if (found) return lockedClient(found);
  if ('clientId' in target) throw notFound(`Client ${target.clientId} does not exist in this project.`);
  const key = clientKey(projectId, target.ref);
  const { ref } = target;
  const [created] = await sql.query(
    `INSERT INTO "Client" AS c ("projectId", "clientType", "groupId", "platformId", name, avatar, tag, "createdAt", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT ("projectId", "clientType", "groupId", "platformId") DO NOTHING
     RETURNING ${LOCKED_CLIENT_COLUMNS}`,
    [
      projectId,
      key.clientType,
      key.groupId,
      key.platformId,
      ref.name ?? '',
      ref.avatar ?? '',
      ref.tag ?? '',
      new Date(),
    ],
  );
  // Empty when a concurrent first message created the client: lock the one it made.
  return lockedClient(created ?? (await find()));
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
