import {
  CLIENT_WHERE,
  type ClientTarget,
  clientWhere,
  LOCKED_CLIENT_COLUMNS,
  type LockedClient,
  lockClient,
  lockedClient,
} from '@/server/clients/client-service';
import { PreparedStatement, type Sql } from '@/server/db/raw-sql';
import { notFound } from '@/server/errors';
import {
  parseScopedVariables,
  type ScopedVariables,
  scopedVariablesColumns,
} from '@/server/variables/variable-store';
import type { RunProject } from './event-run';

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

function eventState(projectId: number, row: Record<string, unknown>): EventState {
  return {
    project: {
      id: projectId,
      plan: row.plan as RunProject['plan'],
      timeZone: row.timeZone as string,
      schemaRevision: row.schemaRevision as number,
      hasWebhook: row.hasWebhook as boolean,
    },
    dealId: row.dealId as number,
    variables: parseScopedVariables(row),
  };
}

const lockAndLoadWhere = (where: string) =>
  new PreparedStatement(
    `SELECT ${LOCKED_CLIENT_COLUMNS}, c.xmin = (SELECT xmin FROM "Client" WHERE id = c.id) AS fresh,
       ${stateColumns({ project: 'c."projectId"', client: 'c.id', deal: 'd.id', variablesDeal: 'd.id' })}
     FROM "Client" c
     JOIN "Project" p ON p.id = c."projectId"
     LEFT JOIN LATERAL (
       SELECT id FROM "Deal" WHERE "projectId" = c."projectId" AND "clientId" = c.id AND "closedAt" IS NULL
       ORDER BY id DESC LIMIT 1
     ) d ON true
     WHERE ${where}
     FOR UPDATE OF c`,
  );
const lockAndLoadStatements = {
  id: lockAndLoadWhere(CLIENT_WHERE.id),
  ref: lockAndLoadWhere(CLIENT_WHERE.ref),
};

/**
 * Locks the event's client (events of one client run one at a time) and reads what the event
 * starts from, usually in one statement. That statement's snapshot is taken before it waits for
 * the lock, so when the client row it locked is newer than the one its snapshot saw (the
 * previous event committed meanwhile: every event updates the row) or the client has no open
 * deal yet, the state is read again in a statement of its own.
 */
export async function lockAndLoad(
  sql: Sql,
  projectId: number,
  target: ClientTarget,
): Promise<{ client: LockedClient; state: EventState }> {
  const { by, params } = clientWhere(projectId, target);
  const [row] = await sql.run(lockAndLoadStatements[by], params);
  if (row?.fresh && row.dealId !== null)
    return { client: lockedClient(row), state: eventState(projectId, row) };
  const client = row ? lockedClient(row) : await lockClient(sql, projectId, target, { knownMissing: true });
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
);

/** The state of a client already locked in this transaction, creating its open deal when it has none. */
async function loadEventState(sql: Sql, projectId: number, clientId: number): Promise<EventState> {
  const [row] = await sql.run(loadState, { projectId, clientId, at: new Date() });
  if (!row) throw notFound(`Project ${projectId} does not exist.`);
  return eventState(projectId, row);
}
