import { z } from 'zod';
import type { RecipientFilter } from '@/lib/broadcasts/recipient-filter';
import type { Db } from './client-type';
import { column } from './columns';
import { Prisma } from './generated/client';

/**
 * A broadcast's recipients, chosen by one WHERE clause for the count before sending and for
 * the INSERT ... SELECT that records them: the database does the work, no recipient passes
 * through JavaScript (a broadcast to 100,000 clients is one statement).
 */
function recipientWhere(projectId: number, f: RecipientFilter): Prisma.Sql {
  const conditions: Prisma.Sql[] = [Prisma.sql`c."projectId" = ${projectId}`];
  if (f.clientIds) conditions.push(Prisma.sql`c.id = ANY (${f.clientIds}::int[])`);
  else conditions.push(Prisma.sql`c.subscribed`);
  if (f.listIds.length)
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM "ClientListMember" m WHERE m."clientId" = c.id AND m."listId" = ANY (${f.listIds}::int[]))`,
    );
  if (f.excludeListIds.length)
    conditions.push(
      Prisma.sql`NOT EXISTS (SELECT 1 FROM "ClientListMember" m WHERE m."clientId" = c.id AND m."listId" = ANY (${f.excludeListIds}::int[]))`,
    );
  if (f.clientTypes.length) conditions.push(Prisma.sql`c."clientType" = ANY (${f.clientTypes}::int[])`);
  if (f.crmStateId)
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM "Deal" d WHERE d."clientId" = c.id AND d."stateId" = ${f.crmStateId} AND d."closedAt" IS NULL)`,
    );
  if (f.blockId) conditions.push(Prisma.sql`c."currentBlockId" = ${f.blockId}`);
  if (f.variable) {
    const v = f.variable;
    const has = (cond: Prisma.Sql) =>
      Prisma.sql`EXISTS (SELECT 1 FROM "ClientVariable" v WHERE v."clientId" = c.id AND v.name = ${v.name} AND ${cond})`;
    if (v.op === 'equals') conditions.push(has(Prisma.sql`v.value = ${v.value}`));
    else if (v.op === 'not_equals') conditions.push(Prisma.sql`NOT ${has(Prisma.sql`v.value = ${v.value}`)}`);
    else if (v.op === 'contains')
      conditions.push(has(Prisma.sql`strpos(lower(v.value), lower(${v.value})) > 0`));
    else if (v.op === 'is_set') conditions.push(has(Prisma.sql`v.value <> ''`));
    else conditions.push(Prisma.sql`NOT ${has(Prisma.sql`v.value <> ''`)}`);
  }
  if (f.firstContactAfter)
    conditions.push(
      Prisma.sql`c."createdAt" >= (${f.firstContactAfter.toISOString()}::timestamptz AT TIME ZONE 'UTC')`,
    );
  if (f.firstContactBefore)
    conditions.push(
      Prisma.sql`c."createdAt" < (${f.firstContactBefore.toISOString()}::timestamptz AT TIME ZONE 'UTC')`,
    );
  return Prisma.join(conditions, ' AND ');
}

export async function countRecipients(db: Db, projectId: number, f: RecipientFilter): Promise<number> {
  const rows =
    await db.$queryRaw`SELECT count(*)::int AS n FROM "Client" c WHERE ${recipientWhere(projectId, f)}`;
  return z.array(z.object({ n: column.int })).parse(rows)[0]?.n ?? 0;
}

/** Records the broadcast's recipients (all pending) in one statement; how many. */
export async function insertRecipients(
  db: Db,
  projectId: number,
  broadcastId: number,
  f: RecipientFilter,
): Promise<number> {
  return db.$executeRaw`
    INSERT INTO "BroadcastRecipient" ("broadcastId", "clientId", "projectId", status)
    SELECT ${broadcastId}, c.id, c."projectId", 'pending'::"SendStatus" FROM "Client" c
    WHERE ${recipientWhere(projectId, f)}
    ON CONFLICT DO NOTHING`;
}

/** Marks every still-pending recipient cancelled; how many. */
export async function cancelPendingRecipients(db: Db, broadcastId: number): Promise<number> {
  return db.$executeRaw`
    UPDATE "BroadcastRecipient" SET status = 'cancelled'::"SendStatus"
    WHERE "broadcastId" = ${broadcastId} AND status = 'pending'::"SendStatus"`;
}
