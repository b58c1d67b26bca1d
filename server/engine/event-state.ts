import { z } from 'zod';
import {
  CLIENT_WHERE,
  type ClientTarget,
  clientWhere,
  LOCKED_CLIENT_COLUMNS,
  type LockedClient,
  lockedClientRow,
} from '@/server/contacts/client-service';
import {
  type ScopedVariables,
  scopedVariablesColumns,
  scopedVariablesRow,
} from '@/server/contacts/variable-store';
import { column } from '@/server/db/columns';
import { Plan } from '@/server/db/generated/enums';
import { PreparedStatement, type Sql } from '@/server/db/raw-sql';
import { notFound } from '@/server/errors';
import { claimMissing, LEASE_NOW, LEASE_SECONDS } from './client-lease';
import type { RunProject } from './run-state';

export interface EventState {
  project: RunProject & { schemaRevision: number; hasWebhook: boolean };
  /** The client's open deal, created when it has none. */
  dealId: number;
  variables: ScopedVariables;
}

/** Project p's settings (its schema revision keys the compiled bot), the deal and the variables. */
const stateColumns = (ids: { project: string; client: string; deal: string; variablesDeal: string }) =>
  `p.plan::text AS plan, p."timeZone", p."schemaRevision", p."webhookUrl" IS NOT NULL AS "hasWebhook",
   ${ids.deal} AS "dealId", ${scopedVariablesColumns(ids.variablesDeal, ids.client, ids.project)}`;

/** The columns of `stateColumns`, typed. */
const stateRow = scopedVariablesRow.extend({
  plan: z.enum(Plan),
  timeZone: column.text,
  schemaRevision: column.int,
  hasWebhook: column.bool,
  /** Null when the client has no open deal yet. */
  dealId: column.int.nullable(),
});
type StateRow = z.infer<typeof stateRow>;

function eventState(projectId: number, row: StateRow & { dealId: number }): EventState {
  return {
    project: {
      id: projectId,
      plan: row.plan,
      timeZone: row.timeZone,
      schemaRevision: row.schemaRevision,
      hasWebhook: row.hasWebhook,
    },
    dealId: row.dealId,
    variables: { deal: row.dealVariables, client: row.clientVariables, project: row.projectVariables },
  };
}

const hasDeal = (row: StateRow): row is StateRow & { dealId: number } => row.dealId !== null;

// The claim commits without waiting for its WAL to reach the disk (synchronous_commit off for
// its own transaction): a claim lost in a database crash only makes the event's final write,
// which checks the token and commits synchronously, fail cleanly. The token may be the one the
// previous event of this process kept the lease under for this event.
const claimAndLoadWhere = (where: string) =>
  new PreparedStatement(
    `WITH no_flush AS (
       SELECT set_config('synchronous_commit', 'off', true)
     ), claimed AS (
       UPDATE "Client" c SET "leaseToken" = $token, "leaseUntil" = ${LEASE_NOW} + make_interval(secs => $seconds)
       WHERE ${where} AND (c."leaseUntil" IS NULL OR c."leaseUntil" < ${LEASE_NOW} OR c."leaseToken" = $token)
       RETURNING c.*
     )
     SELECT ${LOCKED_CLIENT_COLUMNS},
       coalesce((SELECT "leaseToken" FROM "Client" WHERE id = c.id) = $token, true) AS fresh,
       ${stateColumns({ project: 'c."projectId"', client: 'c.id', deal: 'd.id', variablesDeal: 'd.id' })}
     FROM claimed c
     CROSS JOIN no_flush
     JOIN "Project" p ON p.id = c."projectId"
     LEFT JOIN LATERAL (
       SELECT id FROM "Deal" WHERE "projectId" = c."projectId" AND "clientId" = c.id AND "closedAt" IS NULL
       ORDER BY id DESC LIMIT 1
     ) d ON true`,
    // \`fresh\`: false when the snapshot still showed another event's lease.
    lockedClientRow.extend(stateRow.shape).extend({ fresh: column.bool.nullable() }),
  );
const claimAndLoadStatements = {
  id: claimAndLoadWhere(CLIENT_WHERE.id),
  ref: claimAndLoadWhere(CLIENT_WHERE.ref),
};

/**
 * Claims the event's client (`claimLease`) and reads what the event starts from, usually in
 * one autocommitted statement. Its reads see the snapshot taken before the claim waited on a
 * previous event's final write: when that snapshot still shows another event's lease (the
 * previous event released it meanwhile) or the client has no open deal yet, the state is read
 * again. A lease kept for this event by the previous one here is shown only after that event's
 * final write, so it is fresh.
 * Undefined when another event holds the client.
 */
export async function claimAndLoad(
  sql: Sql,
  projectId: number,
  target: ClientTarget,
  token: string,
): Promise<{ client: LockedClient; state: EventState } | undefined> {
  const { by, params } = clientWhere(projectId, target);
  const [row] = await sql.run(claimAndLoadStatements[by], { ...params, token, seconds: LEASE_SECONDS });
  if (row?.fresh && hasDeal(row))
    return { client: lockedClientRow.parse(row), state: eventState(projectId, row) };
  const client = row ? lockedClientRow.parse(row) : await claimMissing(sql, projectId, target, token);
  if (!client) return undefined;
  return { client, state: await loadEventState(sql, projectId, client.id) };
}

const loadState = new PreparedStatement(
  `WITH open_deal AS (
     SELECT id FROM "Deal" WHERE "projectId" = $projectId AND "clientId" = $clientId AND "closedAt" IS NULL
     ORDER BY id DESC LIMIT 1
   ), new_deal AS (
     INSERT INTO "Deal" ("projectId", "clientId", "createdAt", "updatedAt")
     SELECT $projectId::int, $clientId::int, $at::timestamp(3), $at::timestamp(3)
     WHERE NOT EXISTS (SELECT 1 FROM open_deal)
     RETURNING id
   )
   SELECT ${stateColumns({
     project: '$projectId::int',
     client: '$clientId::int',
     deal: '(SELECT id FROM open_deal UNION ALL SELECT id FROM new_deal)',
     variablesDeal: '(SELECT id FROM open_deal)',
   })}
   FROM "Project" p WHERE p.id = $projectId`,
  stateRow,
);

/** The state of a client this event holds, creating its open deal when it has none. */
async function loadEventState(sql: Sql, projectId: number, clientId: number): Promise<EventState> {
  const [row] = await sql.run(loadState, { projectId, clientId, at: new Date() });
  if (!row) throw notFound(`Project ${projectId} does not exist.`);
  if (!hasDeal(row)) throw new Error(`Client ${clientId} has no open deal after it was created.`);
  return eventState(projectId, row);
}
