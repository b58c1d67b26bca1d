import type { BlockRequest, BotSchema } from '@/lib/schema';
import { isVariableName, parseStoredValues } from '@/lib/template';
import { type Expr, parseFormula } from './parser';
import { SYSTEM_VARIABLES } from './system-variables';

export { SYSTEM_VARIABLES };

/** A variable the editor can complete, with where it comes from (shown beside the completion). */
export interface KnownVariable {
  name: string;
  detail: string;
}

/** The variable an assignment writes: `a`, `a[0]` and `a['k']` all write `a`. */
function assignedName(target: Expr): string | null {
  if (target.type === 'name') return target.name;
  return target.type === 'index' ? assignedName(target.target) : null;
}

function storedValueTargets(request: BlockRequest | undefined): string[] {
  if (!request?.storedValues.trim()) return [];
  // A name built at run time (`#{...}`) is not known here.
  return parseStoredValues(request.storedValues)
    .phrases.map((p) => p.variable)
    .filter(isVariableName);
}

/**
 * Every variable the bot's designer can refer to: what formulas assign, what arrows collect,
 * what block and condition requests store, the project's constants and the system variables.
 * Each name appears once, with the first place it comes from (system variables first).
 */
export function knownVariables(
  schema: Pick<BotSchema, 'blocks' | 'arrows'>,
  projectConstants: readonly string[] = [],
): KnownVariable[] {
  const found = new Map<string, string>();
  const add = (name: string, detail: string) => {
    if (!found.has(name)) found.set(name, detail);
  };
  // First, so a formula line that (wrongly) assigns one does not hide that it is read-only.
  for (const v of SYSTEM_VARIABLES) add(v.name, v.detail);
  for (const block of schema.blocks) {
    if (block.formula.trim()) {
      for (const statement of parseFormula(block.formula).statements) {
        const name = statement.type === 'assign' ? assignedName(statement.target) : null;
        if (name) add(name, `set by the formula of block #${block.id}`);
      }
    }
    for (const name of storedValueTargets(block.request))
      add(name, `stored from the request of block #${block.id}`);
  }
  for (const arrow of schema.arrows) {
    if (arrow.collectInto) add(arrow.collectInto, `collected by arrow #${arrow.id}`);
    for (const name of storedValueTargets(arrow.request))
      add(name, `stored from the condition request of arrow #${arrow.id}`);
  }
  for (const name of projectConstants) add(`project.${name}`, 'project constant');
  return [...found].map(([name, detail]) => ({ name, detail }));
}
