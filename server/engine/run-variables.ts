import { splitScope } from '@/server/contacts/variable-limits';
import { applyVariableChanges, type VariableWrites } from '@/server/contacts/variable-store';
import type { EngineScope } from './engine-scope';
import type { RunHost } from './run-context';
import { OTHER_CLIENTS_LEFT_ALONE } from './test-run';

/**
 * The event's variables as steps and functions read and set them (its scope, bot-semantics §3),
 * and what it sets aside to write at its end: its own changes, by the deal they belong to, and
 * other clients' profile variables (`set_client_var`).
 */
export class RunVariables {
  /** Variable changes set aside for the end: a deal closed meanwhile keeps its own. */
  readonly #writes: VariableWrites = { deals: new Map(), client: new Map() };
  /** Other clients' variables this event set: reads see them first. */
  readonly #otherClients = new Map<string, string | null>();

  constructor(
    private readonly run: RunHost,
    readonly scope: EngineScope,
  ) {}

  get writes(): Readonly<VariableWrites> {
    return this.#writes;
  }

  get(name: string): string | undefined {
    return this.scope.get(name);
  }

  /** Sets a variable, its limits checked now: a refused write throws (a formula line's error). */
  set(name: string, value: string | null): void {
    this.scope.set(name, value);
  }

  /** Sets a variable; a refused write is logged (`variable_error`) and answers false. */
  trySet(name: string, value: string | null): boolean {
    try {
      this.scope.set(name, value);
      return true;
    } catch (error) {
      this.run.note('variable_error', { name, message: (error as Error).message });
      return false;
    }
  }

  /** The variables set while `work` runs (the last value of each, None when cleared), for the log. */
  record(work: () => Promise<unknown>): Promise<Record<string, string | null>> {
    return this.scope.record(work);
  }

  /** The open deal's variables now, for a submission. */
  dealValues(): Record<string, string> {
    return this.scope.dealVariables();
  }

  ofOtherClient(clientId: number, name: string): string | null | undefined {
    return this.#otherClients.get(`${clientId}:${name}`);
  }

  /** Sets another client's profile variable, written (with its limits checked) at the end. */
  setOfOtherClient(clientId: number, name: string, value: string | null): void {
    if (this.run.testRun) {
      this.run.note('error', { message: OTHER_CLIENTS_LEFT_ALONE, clientId, variable: name });
      return;
    }
    this.#otherClients.set(`${clientId}:${name}`, value);
    const target = { projectId: this.run.project.id, clientId, dealId: 0 };
    this.run.later((tx) => applyVariableChanges(tx, target, [{ name, value }]));
  }

  /**
   * Sets the changes so far aside for the deal they belong to (`dealId`, the open one); they are
   * written with the event's other writes at its end. The scope checked every limit as they were made.
   */
  flush(dealId: number): void {
    for (const { name, value } of this.scope.takeChanges()) {
      const { scope, name: bare } = splitScope(name);
      if (scope === 'client') {
        this.#writes.client.set(bare, value);
        continue;
      }
      const deal = this.#writes.deals.get(dealId) ?? new Map<string, string | null>();
      this.#writes.deals.set(dealId, deal.set(bare, value));
    }
  }
}
