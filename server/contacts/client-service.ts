import type { z } from 'zod';
import { clientIdentity } from '@/lib/channels/descriptors';
import { createLocked, findLocked, type lockedClientRow } from '@/server/db/client-sql';
import type { Db } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import type { Sql } from '@/server/db/raw-sql';
import { lockClientRows } from '@/server/db/row-queries';
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

/** The unique identity of a client, as its channel's descriptor writes it (lib/channels). */
function clientKey(projectId: number, ref: ClientRef) {
  return { projectId, clientType: ref.clientType, ...clientIdentity(ref) };
}

/**
 * The client with this identity in the project, created on first contact. Concurrent first
 * contacts resolve to one client: the insert skips an identity that exists by then (ON CONFLICT
 * DO NOTHING, waiting for a creator still in flight), and the row is read again after it.
 */
export async function resolveClient(db: Db, projectId: number, ref: ClientRef) {
  const key = clientKey(projectId, ref);
  const where = { projectId_clientType_groupId_platformId: key };
  const found = await db.client.findUnique({ where });
  if (found) return found;
  await db.client.createMany({
    data: [{ ...key, name: ref.name ?? '', avatar: ref.avatar ?? '', tag: ref.tag ?? '' }],
    skipDuplicates: true,
  });
  return db.client.findUniqueOrThrow({ where });
}

/** Identities read or created per statement by `resolveClients`. */
const RESOLVE_CHUNK = 5_000;

/**
 * `resolveClient` for many identities at once (a list's CSV import): the existing clients read,
 * the missing ones created in one insert (skipping any a concurrent first contact made by then)
 * and read back. Each identity's client, in the given order, with whether this call created it.
 */
export async function resolveClients(
  db: Db,
  projectId: number,
  refs: readonly ClientRef[],
): Promise<{ id: number; created: boolean }[]> {
  const out: { id: number; created: boolean }[] = [];
  for (let i = 0; i < refs.length; i += RESOLVE_CHUNK) {
    const part = refs.slice(i, i + RESOLVE_CHUNK).map((ref) => ({ ref, key: clientKey(projectId, ref) }));
    const text = (k: ReturnType<typeof clientKey>) => `${k.clientType}\n${k.groupId}\n${k.platformId}`;
    const read = async () =>
      new Map(
        (
          await db.client.findMany({
            where: {
              projectId,
              clientType: { in: [...new Set(part.map((p) => p.key.clientType))] },
              groupId: { in: [...new Set(part.map((p) => p.key.groupId))] },
              platformId: { in: [...new Set(part.map((p) => p.key.platformId))] },
            },
            select: { id: true, clientType: true, groupId: true, platformId: true },
          })
        ).map((c) => [text({ projectId, ...c }), c.id]),
      );
    const before = await read();
    const missing = part.filter((p) => !before.has(text(p.key)));
    if (missing.length)
      await db.client.createMany({
        data: missing.map(({ ref, key }) => ({
          ...key,
          name: ref.name ?? '',
          avatar: ref.avatar ?? '',
          tag: ref.tag ?? '',
        })),
        skipDuplicates: true,
      });
    const after = missing.length ? await read() : before;
    for (const { key } of part) {
      const id = after.get(text(key));
      if (id === undefined) throw notFound('A client was deleted while it was being created.');
      out.push({ id, created: !before.has(text(key)) });
    }
  }
  return out;
}

/** Who an event is for: a known client, or an identity resolved (and created) on the way. */
export type ClientTarget = { clientId: number } | { ref: ClientRef };

export type LockedClient = z.infer<typeof lockedClientRow>;

/** Which of `CLIENT_WHERE` picks the target, and its parameters. */
export function clientWhere(projectId: number, target: ClientTarget) {
  if ('clientId' in target) return { by: 'id' as const, params: { projectId, clientId: target.clientId } };
  return { by: 'ref' as const, params: clientKey(projectId, target.ref) };
}

/**
 * Locks the client's row until the transaction ends, so events of one client run one at a
 * time; a new identity is created first (at once when the caller knows the row is missing). Reads
 * that must see the previous event's writes go in later statements: a statement's snapshot is
 * taken before it waits for the lock.
 */
export async function lockClient(
  sql: Sql,
  projectId: number,
  target: ClientTarget,
  options: { knownMissing?: boolean } = {},
): Promise<LockedClient> {
  const { by, params } = clientWhere(projectId, target);
  const find = async () => (await sql.run(findLocked[by], params))[0];
  const found = options.knownMissing ? undefined : await find();
  if (found) return found;
  if (!('ref' in target)) throw notFound(`Client ${target.clientId} does not exist in this project.`);
  const { ref } = target;
  const [created] = await sql.run(createLocked, {
    ...clientKey(projectId, ref),
    name: ref.name ?? '',
    avatar: ref.avatar ?? '',
    tag: ref.tag ?? '',
    at: new Date(),
  });
  // Empty when a concurrent first message created the client: lock the one it made.
  const locked = created ?? (await find());
  if (!locked) throw notFound('The client was deleted while its first message arrived.');
  return locked;
}

/**
 * Locks these clients' rows until the transaction ends, as an event does (`lockClient`), so
 * writes counted against a client's limits wait for its events and for each other. Rows are
 * locked in id order, so two callers locking overlapping sets never wait on each other.
 */
export async function lockClients(
  tx: Prisma.TransactionClient,
  projectId: number,
  clientIds: readonly number[],
) {
  const ids = [...new Set(clientIds)].sort((a, b) => a - b);
  const locked = new Set(await lockClientRows(tx, projectId, ids));
  const missing = clientIds.find((id) => !locked.has(id));
  if (missing !== undefined) throw notFound(`Client ${missing} does not exist in this project.`);
}

export async function getClient(db: Db, projectId: number, clientId: number) {
  const client = await db.client.findFirst({ where: { id: clientId, projectId } });
  if (!client) throw notFound(`Client ${clientId} does not exist in this project.`);
  return client;
}

/**
 * The client's open deal (the one collecting variables), created when there is none. The
 * caller holds the client's lock (`lockClients`), or two callers at once may open two deals.
 */
export async function openDeal(db: Db, projectId: number, clientId: number) {
  const open = await db.deal.findFirst({
    where: { projectId, clientId, closedAt: null },
    orderBy: { id: 'desc' },
  });
  return open ?? db.deal.create({ data: { projectId, clientId } });
}
