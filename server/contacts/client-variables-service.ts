import { lockClients, openDeal } from '@/server/contacts/client-service';
import { CLIENT_VARIABLES } from '@/server/db/client-sql';
import type { PrismaClient } from '@/server/db/client-type';
import { plainSql } from '@/server/db/raw-sql';
import { DomainError, notFound } from '@/server/errors';
import { applyVariableChanges, type VariableChange, validateChanges } from './variable-store';

/** A variable value as integrators send it: strings as they are, anything else as JSON text. */
export function toStoredString(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A client's variables as the API shows them: deal variables by name, profile variables with
 * their `client.` prefix, the same keys save_variables takes. One prepared statement in plain
 * SQL: this is the public API's hottest read, and a Prisma call costs several times its round trip.
 */
// A promise chain, not an async function: the public API's get_variables is a hot path, and with
// AsyncLocalStorage in use every promise costs a hook (Node 20).
export function getClientVariables(
  db: PrismaClient,
  projectId: number,
  clientId: number,
): Promise<Record<string, string | null>> {
  return plainSql(db)
    .run(CLIENT_VARIABLES, { client: clientId, project: projectId })
    .then((rows) => {
      if (!rows.length) throw notFound(`Client ${clientId} does not exist in this project.`);
      return Object.fromEntries(rows.flatMap((r) => (r.name === null ? [] : [[r.name, r.value]])));
    });
}

/**
 * Saves variables for several clients in one transaction: a client over a limit refuses the
 * whole batch. Each client's row is locked first, as its events lock it, so the limits are
 * counted with no other write of that client in between.
 */
export async function saveClientVariables(
  db: PrismaClient,
  projectId: number,
  clientIds: readonly number[],
  variables: Record<string, unknown>,
) {
  const changes: VariableChange[] = Object.entries(variables).map(([name, value]) => ({
    name,
    value: toStoredString(value),
  }));
  validateChanges(changes);
  await db.$transaction(
    async (tx) => {
      await lockClients(tx, projectId, clientIds);
      if (!changes.length) return;
      for (const clientId of clientIds) {
        const deal = await openDeal(tx, projectId, clientId);
        await applyVariableChanges(tx, { projectId, clientId, dealId: deal.id }, changes).catch((error) => {
          throw clientIds.length > 1 && error instanceof DomainError
            ? new DomainError(error.code, `Client ${clientId}: ${error.message}`, error.field)
            : error;
        });
      }
    },
    // A batch of many clients takes longer than one event.
    { timeout: 60_000, maxWait: 10_000 },
  );
}
