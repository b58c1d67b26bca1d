import type { Db } from '@/server/db/client-type';
import { readScopedVariables } from '@/server/db/row-queries';
import { DomainError } from '@/server/errors';
import { splitScope, VARIABLE_LIMITS, valueKey } from './variable-limits';

export interface VariableOwner {
  projectId: number;
  clientId: number;
  /** The client's open deal; deal-scope writes need one. */
  dealId: number;
}

/** A change: a string sets the variable, null clears it. Names keep their `client.` prefix. */
export type VariableChange = { name: string; value: string | null };

export interface ScopedVariables {
  deal: Record<string, string>;
  client: Record<string, string>;
  project: Record<string, string>;
}

/** Checks every change against the limits first, so a refused batch writes nothing. */
export function validateChanges(changes: readonly VariableChange[]): void {
  for (const { name, value } of changes) {
    const { scope, name: bare } = splitScope(name);
    if (scope === 'project') {
      throw new DomainError(
        'invalid',
        `"${name}" is a project constant: change it in the project settings.`,
        name,
      );
    }
    if (!bare) throw new DomainError('invalid', `"${name}" is not a variable name.`, name);
    if (name.length > VARIABLE_LIMITS.nameLength) {
      throw new DomainError(
        'limit',
        `The variable name "${name.slice(0, 40)}…" is longer than ${VARIABLE_LIMITS.nameLength} characters.`,
        name,
      );
    }
    if (value !== null && value.length > VARIABLE_LIMITS.valueLength) {
      throw new DomainError(
        'limit',
        `The value of "${name}" has ${value.length} characters; at most ${VARIABLE_LIMITS.valueLength} are allowed.`,
        name,
      );
    }
  }
}

/**
 * Applies changes to the deal and client scopes, within the per-owner limits, inside a
 * transaction the caller holds. The caller locks the client's row first (`lockClient`,
 * `lockClients`; it owns the deal too): the limits are a count, then an insert.
 */
export async function applyVariableChanges(tx: Db, owner: VariableOwner, changes: readonly VariableChange[]) {
  validateChanges(changes);
  // The last change of a name wins, as if applied one by one.
  const latest = new Map(changes.map((c) => [c.name, c.value] as const));
  for (const scope of ['deal', 'client'] as const) {
    const entries = [...latest].filter(([name]) => splitScope(name).scope === scope);
    if (entries.length) await writeScope(tx, owner, scope, entries);
  }
}

interface ScopeTable {
  clear(names: string[]): Promise<unknown>;
  existingNames(names: string[]): Promise<{ name: string }[]>;
  count(): Promise<number>;
  upsert(name: string, value: string): Promise<unknown>;
}

/** The deal and client variable tables behind one shape, so the limits are checked once. */
function scopeTable(tx: Db, owner: VariableOwner, scope: 'deal' | 'client'): ScopeTable {
  const { projectId, clientId, dealId } = owner;
  if (scope === 'deal') {
    return {
      clear: (names) => tx.dealVariable.deleteMany({ where: { dealId, name: { in: names } } }),
      existingNames: (names) =>
        tx.dealVariable.findMany({ where: { dealId, name: { in: names } }, select: { name: true } }),
      count: () => tx.dealVariable.count({ where: { dealId } }),
      upsert: (name, value) =>
        tx.dealVariable.upsert({
          where: { dealId_name: { dealId, name } },
          create: { projectId, dealId, name, value, valueKey: valueKey(value) },
          update: { value, valueKey: valueKey(value) },
        }),
    };
  }
  return {
    clear: (names) => tx.clientVariable.deleteMany({ where: { clientId, name: { in: names } } }),
    existingNames: (names) =>
      tx.clientVariable.findMany({ where: { clientId, name: { in: names } }, select: { name: true } }),
    count: () => tx.clientVariable.count({ where: { clientId } }),
    upsert: (name, value) =>
      tx.clientVariable.upsert({
        where: { clientId_name: { clientId, name } },
        create: { projectId, clientId, name, value, valueKey: valueKey(value) },
        update: { value, valueKey: valueKey(value) },
      }),
  };
}

async function writeScope(
  tx: Db,
  owner: VariableOwner,
  scope: 'deal' | 'client',
  entries: [string, string | null][],
) {
  const table = scopeTable(tx, owner, scope);
  const bare = entries.map(([name, value]) => [splitScope(name).name, value] as const);
  const sets = bare.filter((e): e is readonly [string, string] => e[1] !== null);
  const clears = bare.filter(([, value]) => value === null).map(([name]) => name);
  if (clears.length) await table.clear(clears);
  if (!sets.length) return;
  const added = sets.length - (await table.existingNames(sets.map(([name]) => name))).length;
  if (added > 0) {
    const count = await table.count();
    if (count + added > VARIABLE_LIMITS.perOwner) {
      throw new DomainError(
        'limit',
        `A ${scope} may have at most ${VARIABLE_LIMITS.perOwner} variables; this would make ${count + added}. Clear unused variables first.`,
      );
    }
  }
  for (const [name, value] of sets) await table.upsert(name, value);
}

/** Every variable a client sees, by scope (lookup order deal → client → project is the reader's). */
export async function readVariables(
  db: Db,
  owner: Omit<VariableOwner, 'dealId'> & { dealId: number | null },
): Promise<ScopedVariables> {
  const scopes = await readScopedVariables(db, owner.dealId ?? -1, owner.clientId, owner.projectId);
  return { deal: scopes.dealVariables, client: scopes.clientVariables, project: scopes.projectVariables };
}

/** Changes waiting to be written: the deals' by deal id, the client's; null clears a name. */
export interface VariableWrites {
  deals: Map<number, Map<string, string | null>>;
  client: Map<string, string | null>;
}
