import { getClient, openDeal } from '@/server/clients/client-service';
import type { PrismaClient } from '@/server/db/client-type';
import { readVariables, type VariableChange, validateChanges, writeVariables } from './variable-store';

/** A variable value as integrators send it: strings as they are, anything else as JSON text. */
export function toStoredString(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A client's variables as the API shows them: deal variables by name, profile variables with
 * their `client.` prefix, the same keys save_variables takes.
 */
export async function getClientVariables(db: PrismaClient, projectId: number, clientId: number) {
  await getClient(db, projectId, clientId);
  const deal = await db.deal.findFirst({
    where: { projectId, clientId, closedAt: null },
    orderBy: { id: 'desc' },
  });
  const scoped = await readVariables(db, { projectId, clientId, dealId: deal?.id ?? null });
  const prefixed = Object.fromEntries(Object.entries(scoped.client).map(([k, v]) => [`client.${k}`, v]));
  return { ...scoped.deal, ...prefixed };
}

/** Saves variables for several clients; all are checked first, so a bad batch writes nothing. */
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
  for (const clientId of clientIds) await getClient(db, projectId, clientId);
  for (const clientId of clientIds) {
    const deal = await openDeal(db, projectId, clientId);
    await writeVariables(db, { projectId, clientId, dealId: deal.id }, changes);
  }
}
