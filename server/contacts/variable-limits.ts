/** bot-semantics §3: variable limits, enforced before anything is written. */
export const VARIABLE_LIMITS = {
  nameLength: 500,
  valueLength: 100_000,
  perOwner: 1000,
  projectConstants: 50,
} as const;

/** Characters of a value kept in the indexed lookup column (valueKey). */
export const VALUE_KEY_LENGTH = 200;

export const valueKey = (value: string) => value.slice(0, VALUE_KEY_LENGTH);

export type VariableScope = 'deal' | 'client' | 'project';

/** `client.phone` → client scope, name `phone`; `project.x` → project; otherwise the deal. */
export function splitScope(name: string): { scope: VariableScope; name: string } {
  if (name.startsWith('client.')) return { scope: 'client', name: name.slice('client.'.length) };
  if (name.startsWith('project.')) return { scope: 'project', name: name.slice('project.'.length) };
  return { scope: 'deal', name };
}
