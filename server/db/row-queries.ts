import { z } from 'zod';
import { scopedVariablesColumns, scopedVariablesRow } from './client-sql';
import type { Db } from './client-type';
import { column, DB_NOW } from './columns';
import { Plan, Prisma } from './generated/client';

/**
 * The few statements the services run through Prisma's raw SQL (inside its transactions),
 * each with its row schema: row locks Prisma's query API cannot take, a key lookup joined to
 * its project, a phone search by digits, the variables of every scope in one read.
 */

/** Locks the project's row until the transaction ends; its draft's revision and next ids, its published version. */
export async function lockProjectRow(tx: Prisma.TransactionClient, projectId: number) {
  const rows = await tx.$queryRaw`
    SELECT "schemaRevision", "publishedVersion", "publishedRevision", "nextBlockId", "nextArrowId" FROM "Project"
    WHERE id = ${projectId} FOR UPDATE`;
  return z
    .array(
      z.object({
        schemaRevision: column.int,
        publishedVersion: column.int,
        publishedRevision: column.int.nullable(),
        nextBlockId: column.int,
        nextArrowId: column.int,
      }),
    )
    .parse(rows)
    .at(0);
}

/** Locks these clients' rows of the project, in id order; the ids found. */
export async function lockClientRows(tx: Prisma.TransactionClient, projectId: number, ids: number[]) {
  const rows = await tx.$queryRaw`
    SELECT id FROM "Client" WHERE "projectId" = ${projectId} AND id = ANY (${ids}::int[]) ORDER BY id FOR UPDATE`;
  return z
    .array(z.object({ id: column.int }))
    .parse(rows)
    .map((r) => r.id);
}

/**
 * Serialises one project's work of one kind (`lockSpace`) until the transaction ends: its
 * assignments (contacts/assignment.ts), its team changes (projects/team.ts).
 */
export async function takeAssignmentLock(tx: Prisma.TransactionClient, lockSpace: number, projectId: number) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${lockSpace}::int, ${projectId}::int)`;
}

/** A live API key with its project's plan and allowed origins, by its hash. */
export async function findLiveKeyRow(db: Db, hash: string) {
  const rows = await db.$queryRaw`
    SELECT k.id, k."projectId", k."canDeleteClients", k.hash, k."lastUsedAt", p.plan::text AS plan,
      p."apiAllowedOrigins" AS "allowedOrigins"
    FROM "ApiKey" k JOIN "Project" p ON p.id = k."projectId"
    WHERE k.hash = ${hash} AND k."revokedAt" IS NULL`;
  return z
    .array(
      z.object({
        id: column.int,
        projectId: column.int,
        canDeleteClients: column.bool,
        hash: column.text,
        lastUsedAt: column.timestamp.nullable(),
        plan: z.enum(Plan),
        allowedOrigins: z.array(z.string()),
      }),
    )
    .parse(rows)
    .at(0);
}

/**
 * Clients whose `phone` variable (profile or a deal) has these digits, by id, at most `limit`;
 * only those of the channel `groupId` when given (in any case: tg usernames are case-insensitive).
 */
export async function findClientIdsByPhoneDigits(
  db: Db,
  projectId: number,
  digits: string,
  options: { groupId?: string; limit: number },
) {
  const inChannel =
    options.groupId === undefined
      ? Prisma.empty
      : Prisma.sql`AND EXISTS (SELECT 1 FROM "Client" c WHERE c.id = m."clientId" AND lower(c."groupId") = lower(${options.groupId}))`;
  const rows = await db.$queryRaw`
    SELECT m."clientId" FROM (
      SELECT "clientId" FROM "ClientVariable"
      WHERE "projectId" = ${projectId} AND name = 'phone' AND regexp_replace(value, '\\D', '', 'g') = ${digits}
      UNION
      SELECT d."clientId" FROM "DealVariable" v JOIN "Deal" d ON d.id = v."dealId"
      WHERE v."projectId" = ${projectId} AND v.name = 'phone' AND regexp_replace(v.value, '\\D', '', 'g') = ${digits}
    ) m
    WHERE true ${inChannel}
    ORDER BY m."clientId" LIMIT ${options.limit}`;
  return z
    .array(z.object({ clientId: column.int }))
    .parse(rows)
    .map((r) => r.clientId);
}

/** Every variable of a deal (none for -1), a client and a project, by scope. */
export async function readScopedVariables(db: Db, dealId: number, clientId: number, projectId: number) {
  const [row] = await db.$queryRawUnsafe<unknown[]>(
    `SELECT ${scopedVariablesColumns('$1::int', '$2::int', '$3::int')}`,
    dealId,
    clientId,
    projectId,
  );
  return scopedVariablesRow.parse(row);
}

/** A timestamp column's bound as the column stores it (UTC, no zone), or null for none. */
const utcTimestamp = (date: Date | null) =>
  date ? date.toISOString().replace('T', ' ').replace('Z', '') : null;

/**
 * The variable names a block's submissions hold in a time range (`to` excluded), by name: the
 * submissions table's columns. At most `limit` names.
 */
export async function submissionVariableNames(
  db: Db,
  where: { projectId: number; blockId: number; from: Date | null; to: Date | null },
  limit: number,
) {
  const rows = await db.$queryRaw`
    SELECT DISTINCT k.name
    FROM "Submission" s,
      jsonb_object_keys(CASE WHEN jsonb_typeof(s.variables) = 'object' THEN s.variables ELSE '{}' END) AS k(name)
    WHERE s."projectId" = ${where.projectId} AND s."blockId" = ${where.blockId}
      AND (${utcTimestamp(where.from)}::timestamp IS NULL OR s."createdAt" >= ${utcTimestamp(where.from)}::timestamp)
      AND (${utcTimestamp(where.to)}::timestamp IS NULL OR s."createdAt" < ${utcTimestamp(where.to)}::timestamp)
    ORDER BY k.name
    LIMIT ${limit}`;
  return z
    .array(z.object({ name: column.text }))
    .parse(rows)
    .map((r) => r.name);
}

/**
 * Locks a CRM stage's rows (one stage, or a funnel's) until the transaction ends, as deleting
 * them does first: a deal moved into one meanwhile waits (server/crm/funnel-service.ts).
 */
export async function lockCrmStages(tx: Db, target: { stateId: number } | { funnelId: number }) {
  if ('stateId' in target)
    await tx.$queryRaw`SELECT id FROM "CrmState" WHERE id = ${target.stateId} FOR UPDATE`;
  else await tx.$queryRaw`SELECT id FROM "CrmState" WHERE "funnelId" = ${target.funnelId} FOR UPDATE`;
}

/**
 * Share-locks a CRM stage's row until the transaction ends (a deal moved into it): waits for a
 * deletion under way. False when the stage no longer exists.
 */
export async function shareLockCrmStage(tx: Db, stateId: number): Promise<boolean> {
  const rows = await tx.$queryRaw`SELECT id FROM "CrmState" WHERE id = ${stateId} FOR SHARE`;
  return z.array(z.object({ id: column.int })).parse(rows).length > 0;
}

/**
 * Stores a bot as the project's next version and makes it the published one (server/versions):
 * one statement, the schema passed as JSON text. Prisma's create took several times longer
 * with a 5,000-block schema (converting the object to its own JSON value).
 */
export async function insertPublishedVersion(
  tx: Prisma.TransactionClient,
  v: {
    projectId: number;
    schemaJson: string;
    blockCount: number;
    arrowCount: number;
    answersCallbacks: boolean;
    note: string;
    restoredFrom: number | null;
    publishedById: string | null;
    publishedByName: string;
    draftRevision: number | null;
    testsRun: number;
    testsFailed: number;
  },
) {
  const rows = await tx.$queryRaw`
    WITH version AS (
      INSERT INTO "BotVersion" ("projectId", number, schema, "blockCount", "arrowCount", "answersCallbacks", note,
        "restoredFrom", "publishedById", "publishedByName", "testsRun", "testsFailed", "publishedAt")
      SELECT ${v.projectId}, coalesce(max(number), 0) + 1, ${v.schemaJson}::jsonb, ${v.blockCount}, ${v.arrowCount},
        ${v.answersCallbacks}, ${v.note}, ${v.restoredFrom}::int, ${v.publishedById}::text, ${v.publishedByName},
        ${v.testsRun}, ${v.testsFailed}, ${Prisma.raw(DB_NOW)}
      FROM "BotVersion" WHERE "projectId" = ${v.projectId}
      RETURNING number, note, "publishedAt", "publishedByName", "restoredFrom", "blockCount", "arrowCount",
        "testsRun", "testsFailed"
    ), published AS (
      UPDATE "Project" SET "publishedVersion" = (SELECT number FROM version),
        "publishedRevision" = ${v.draftRevision}::int, "updatedAt" = ${Prisma.raw(DB_NOW)}
      WHERE id = ${v.projectId}
    )
    SELECT * FROM version`;
  return z
    .array(
      z.object({
        number: column.int,
        note: column.text,
        publishedAt: column.timestamp,
        publishedByName: column.text,
        restoredFrom: column.int.nullable(),
        blockCount: column.int,
        arrowCount: column.int,
        testsRun: column.int,
        testsFailed: column.int,
      }),
    )
    .parse(rows)[0];
}
