import { type ClientTarget, clientWhere, type LockedClient } from '@/server/contacts/client-service';
import type { ScopedVariables } from '@/server/contacts/variable-store';
import { lockedClientRow } from '@/server/db/client-sql';
import type { Sql } from '@/server/db/raw-sql';
import { notFound } from '@/server/errors';
import { claimMissing, leaseSeconds } from './client-lease';
import type { RunProject } from './run-context';
import { type ClaimRow, claimAndLoadStatements, loadState, type StateRow } from './store/claim';

/** A client an event holds, and the state it starts from. */
export interface LoadedClient {
  client: LockedClient;
  state: EventState;
}

export interface EventState {
  project: RunProject & {
    schemaRevision: number;
    publishedVersion: number;
    hasWebhook: boolean;
    webhookTestConversations: boolean;
    draftIsPublished: boolean;
  };
  /** The client's open deal, created when it has none. */
  dealId: number;
  variables: ScopedVariables;
}

function eventState(projectId: number, row: StateRow & { dealId: number }): EventState {
  return {
    project: {
      id: projectId,
      plan: row.plan,
      timeZone: row.timeZone,
      schemaRevision: row.schemaRevision,
      publishedVersion: row.publishedVersion,
      hasWebhook: row.hasWebhook,
      webhookTestConversations: row.webhookTestConversations,
      draftIsPublished: row.draftIsPublished,
    },
    dealId: row.dealId,
    variables: { deal: row.dealVariables, client: row.clientVariables, project: row.projectVariables },
  };
}

const hasDeal = (row: StateRow): row is StateRow & { dealId: number } => row.dealId !== null;

/**
 * Claims the event's client (`claimLease`) and reads what the event starts from, usually in
 * one autocommitted statement. Undefined when another event holds the client.
 */
export async function claimAndLoad(
  sql: Sql,
  projectId: number,
  target: ClientTarget,
  token: string,
): Promise<LoadedClient | undefined> {
  const { by, params } = clientWhere(projectId, target);
  const [row] = await sql.run(claimAndLoadStatements[by], { token, seconds: leaseSeconds(), ...params });
  if (row) return loaded(sql, projectId, row);
  const created = await claimMissing(sql, projectId, target, token);
  if (!created) return undefined;
  if (!hasDeal(created)) throw new Error(`Client ${created.id} was created without its open deal.`);
  return { client: lockedClientRow.parse(created), state: eventState(projectId, created) };
}

/**
 * A client as its claim read it. The claim's reads see the snapshot taken before it waited on a
 * previous event's final write: when that snapshot still showed another event's lease (the
 * previous event released it meanwhile) or the client has no open deal yet, the state is read
 * again. A lease kept for this event by the previous one here is shown only after that event's
 * final write, so it is fresh.
 */
export async function loaded(sql: Sql, projectId: number, row: ClaimRow): Promise<LoadedClient> {
  if (row.fresh && hasDeal(row))
    return { client: lockedClientRow.parse(row), state: eventState(projectId, row) };
  const client = lockedClientRow.parse(row);
  return { client, state: await loadEventState(sql, projectId, client.id) };
}

/** The state of a client this event holds, creating its open deal when it has none. */
async function loadEventState(sql: Sql, projectId: number, clientId: number): Promise<EventState> {
  const [row] = await sql.run(loadState, { projectId, clientId, at: new Date() });
  if (!row) throw notFound(`Project ${projectId} does not exist.`);
  if (!hasDeal(row)) throw new Error(`Client ${clientId} has no open deal after it was created.`);
  return eventState(projectId, row);
}
