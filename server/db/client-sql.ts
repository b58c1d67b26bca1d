import { z } from 'zod';
import { column } from './columns';
import { PreparedStatement } from './raw-sql';

/**
 * The SQL of a client's row and variables that the engine's statements (server/engine/store/)
 * and the contacts services share: the locked client's columns and row, how a target picks
 * its row, the variables of every scope in one select list, and the API's variables read.
 */

/** A client row as an event holds it: the columns `LOCKED_CLIENT_COLUMNS` reads. */
export const lockedClientRow = z.object({
  id: column.int,
  projectId: column.int,
  platformId: column.text,
  groupId: column.text,
  clientType: column.int,
  name: column.text,
  createdAt: column.timestamp,
  currentBlockId: column.int.nullable(),
  /** The handoff's pause (lib/inbox/pause.ts): the engine routes nothing while it lasts. */
  botPausedAt: column.timestamp.nullable(),
  botPausedUntil: column.timestamp.nullable(),
});

/** The columns of a `LockedClient`, from the client row aliased `c`. */
export const LOCKED_CLIENT_COLUMNS = `c.id, c."projectId", c."platformId", c."groupId", c."clientType", c.name, c."createdAt", c."currentBlockId",
  c."botPausedAt", c."botPausedUntil"`;

/** The conditions picking a target's client row (aliased `c`), by id or by identity. */
export const CLIENT_WHERE = {
  id: `c.id = $clientId::int AND c."projectId" = $projectId::int`,
  ref: `c."projectId" = $projectId::int AND c."clientType" = $clientType::int
    AND c."groupId" = $groupId::text AND c."platformId" = $platformId::text`,
} as const;

export const findLocked = {
  id: new PreparedStatement(
    `SELECT ${LOCKED_CLIENT_COLUMNS} FROM "Client" c WHERE ${CLIENT_WHERE.id} FOR UPDATE`,
    lockedClientRow,
  ),
  ref: new PreparedStatement(
    `SELECT ${LOCKED_CLIENT_COLUMNS} FROM "Client" c WHERE ${CLIENT_WHERE.ref} FOR UPDATE`,
    lockedClientRow,
  ),
};

export const createLocked = new PreparedStatement(
  `INSERT INTO "Client" AS c ("projectId", "clientType", "groupId", "platformId", name, avatar, tag, "createdAt", "updatedAt")
   VALUES ($projectId, $clientType, $groupId, $platformId, $name, $avatar, $tag, $at, $at)
   ON CONFLICT ("projectId", "clientType", "groupId", "platformId") DO NOTHING
   RETURNING ${LOCKED_CLIENT_COLUMNS}`,
  lockedClientRow,
);

/**
 * Select-list columns with every variable a client sees, one JSON array of [name, value] pairs
 * per scope; the arguments are SQL expressions for the owners' ids. Lets the engine read
 * them in the same statement as the rest of an event's state.
 */
export function scopedVariablesColumns(dealId: string, clientId: string, projectId: string): string {
  const pairs = (table: string, owner: string, id: string) =>
    `(SELECT coalesce(json_agg(json_build_array(name, value)), '[]') FROM "${table}" WHERE "${owner}" = ${id})`;
  return [
    `${pairs('DealVariable', 'dealId', dealId)} AS "dealVariables"`,
    `${pairs('ClientVariable', 'clientId', clientId)} AS "clientVariables"`,
    `${pairs('ProjectConstant', 'projectId', projectId)} AS "projectVariables"`,
  ].join(',\n');
}

/** One scope's `[name, value]` pairs as a null-prototype record: a variable may be called __proto__. */
const scopeColumn = column.json(z.array(z.tuple([z.string(), z.string()]))).transform((pairs) => {
  const record: Record<string, string> = Object.create(null);
  for (const [name, value] of pairs) record[name] = value;
  return record;
});

/** The columns of `scopedVariablesColumns`, typed: JSON text (plain SQL) or parsed (Prisma). */
export const scopedVariablesRow = z.object({
  dealVariables: scopeColumn,
  clientVariables: scopeColumn,
  projectVariables: scopeColumn,
});

/** A client's variables as the API shows them (client-variables-service.ts). */
export const CLIENT_VARIABLES = new PreparedStatement(
  `
  SELECT 'client' AS scope, NULL AS name, NULL AS value FROM "Client" WHERE id = $client AND "projectId" = $project
  UNION ALL
  SELECT 'deal', v.name, v.value FROM "DealVariable" v
    JOIN "Deal" d ON d.id = v."dealId"
    WHERE d."clientId" = $client AND d."projectId" = $project AND d."closedAt" IS NULL
  UNION ALL
  SELECT 'client', 'client.' || name, value FROM "ClientVariable" WHERE "clientId" = $client AND "projectId" = $project`,
  z.object({ name: column.text.nullable(), value: column.text.nullable() }),
  { shares: true },
);
