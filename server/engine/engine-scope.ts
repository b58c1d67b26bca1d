import { defangSecretRefs } from '@/lib/secrets/secret-refs';
import type { TemplateContext } from '@/lib/template';
import { splitScope, VARIABLE_LIMITS } from '@/server/contacts/variable-limits';
import type { ScopedVariables, VariableChange } from '@/server/contacts/variable-store';
import { DomainError } from '@/server/errors';

/**
 * The variables one event sees (bot-semantics §3), held in memory while blocks run and
 * written back at the end in one go. Reads look deal → client → project; system variables are
 * read-only and computed by the engine.
 */
export class EngineScope {
  private readonly deal: Map<string, string>;
  private readonly client: Map<string, string>;
  private readonly project: Map<string, string>;
  private readonly changes = new Map<string, string | null>();
  /** VariableStore's change signal: a new object on every change, so formulas re-read only then. */
  version: object = {};
  /** What was set since `record()` began, for the simulator's log. */
  private recorded: Map<string, string | null> | null = null;

  constructor(
    variables: ScopedVariables,
    private readonly system: (name: string) => string | undefined,
  ) {
    this.deal = new Map(Object.entries(variables.deal));
    this.client = new Map(Object.entries(variables.client));
    this.project = new Map(Object.entries(variables.project));
  }

  /** A value as templates and formulas read it: data never spells a secret reference (docs/secrets.md). */
  get(name: string): string | undefined {
    const value = this.read(name);
    return value === undefined ? value : defangSecretRefs(value);
  }

  private read(name: string): string | undefined {
    const system = this.system(name);
    if (system !== undefined) return system;
    const { scope, name: bare } = splitScope(name);
    if (scope === 'client') return this.client.get(bare);
    if (scope === 'project') return this.project.get(bare);
    return this.deal.get(bare) ?? this.client.get(bare) ?? this.project.get(bare);
  }

  /** Checks every limit now, so a refused write fails its own formula line and nothing else. */
  set(name: string, value: string | null): void {
    if (this.system(name) !== undefined) {
      throw new DomainError('invalid', `${name} is a system variable and cannot be changed.`);
    }
    const { scope, name: bare } = splitScope(name);
    if (scope === 'project')
      throw new DomainError('invalid', `${name} is a project constant; change it in the project settings.`);
    if (!bare || name.length > VARIABLE_LIMITS.nameLength) {
      throw new DomainError('limit', `A variable name has 1 to ${VARIABLE_LIMITS.nameLength} characters.`);
    }
    if (value !== null && value.length > VARIABLE_LIMITS.valueLength) {
      throw new DomainError(
        'limit',
        `The value of ${name} has ${value.length} characters; at most ${VARIABLE_LIMITS.valueLength} are allowed.`,
      );
    }
    const map = scope === 'client' ? this.client : this.deal;
    if (value !== null && !map.has(bare) && map.size >= VARIABLE_LIMITS.perOwner) {
      throw new DomainError(
        'limit',
        `A ${scope} may have at most ${VARIABLE_LIMITS.perOwner} variables; ${name} was not saved.`,
      );
    }
    if (value === null) map.delete(bare);
    else map.set(bare, value);
    this.version = {};
    this.changes.set(scope === 'client' ? `client.${bare}` : bare, value);
    this.recorded?.set(name, value);
  }

  /** Records the variables set while `work` runs (the last value of each, None when cleared). */
  async record(work: () => Promise<unknown>): Promise<Record<string, string | null>> {
    const outer = this.recorded;
    this.recorded = new Map();
    try {
      await work();
      return Object.fromEntries(this.recorded);
    } finally {
      this.recorded = outer;
    }
  }

  /** The deal's variables now, for a submission. */
  dealVariables(): Record<string, string> {
    return Object.fromEntries(this.deal);
  }

  /** After a red block: the deal is closed and the next one starts empty. */
  discardDeal(): void {
    for (const name of this.deal.keys()) this.changes.delete(name);
    this.deal.clear();
    this.version = {};
  }

  /** The changes not yet written, handed over once. */
  takeChanges(): VariableChange[] {
    const all = [...this.changes].map(([name, value]) => ({ name, value }));
    this.changes.clear();
    return all;
  }

  snapshot(): ScopedVariables {
    return {
      deal: Object.fromEntries(this.deal),
      client: Object.fromEntries(this.client),
      project: Object.fromEntries(this.project),
    };
  }

  templateContext(evaluate?: (expression: string) => string): TemplateContext {
    return { lookup: (name) => this.get(name), evaluate };
  }
}
