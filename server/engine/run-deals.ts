import { closeDeal, moveDeal, recordSubmission } from '@/server/contacts/deal-service';
import type { CrmStateKind } from '@/server/db/generated/client';
import type { RunHost } from './run-context';
import type { RunVariables } from './run-variables';
import { newId } from './store/ids';
import type { SystemState } from './system-variables';

/**
 * The client's open deal as the event changes it (docs/crm.md): its CRM stage, its submissions,
 * closing it and opening the next one; each written with the event.
 */
export class RunDeals {
  #id: number;
  /** The event's submissions: each one's webhook goes in the outbox with the event. */
  readonly #submissionIds: number[] = [];
  /** Deals this event moved to another stage: a live event each after the commit (the board). */
  readonly #moved: number[] = [];

  constructor(
    private readonly run: RunHost,
    private readonly variables: RunVariables,
    /** The system variables' state: `#{deal_id}` follows the open deal. */
    private readonly system: SystemState,
    dealId: number,
  ) {
    this.#id = dealId;
  }

  /** The open deal. */
  get id(): number {
    return this.#id;
  }
  get submissionIds(): readonly number[] {
    return this.#submissionIds;
  }
  get moved(): readonly number[] {
    return this.#moved;
  }

  /**
   * Moves the open deal to a CRM stage (known to exist). A won or lost stage closes it and
   * opens the client's next one, empty, as a close_deal block does.
   */
  async moveTo(state: { id: number; kind: CrmStateKind; name: string }): Promise<void> {
    const dealId = this.#id;
    this.run.later((tx) => moveDeal(tx, dealId, state.id));
    this.#moved.push(dealId);
    this.run.note('deal_moved', { dealId, stateId: state.id, stage: state.name, kind: state.kind });
    if (state.kind !== 'open') await this.close();
  }

  /**
   * Closes the open deal with the variables collected so far and opens the next one, empty
   * (close_deal blocks, create_order()). Returns the new deal's id.
   */
  async close(): Promise<number> {
    this.variables.flush(this.#id);
    const closed = this.#id;
    const next = await newId(this.run.db, 'Deal');
    const at = this.run.now();
    const data = { id: next, projectId: this.run.project.id, clientId: this.run.client.id };
    this.run.later((tx) => closeDeal(tx, { dealId: closed, at }, data));
    this.#id = next;
    this.system.dealId = next;
    this.variables.scope.discardDeal();
    return next;
  }

  /** A submission of the open deal's variables, written with the event; returns its id. */
  async submit(blockId: number, variables: Record<string, string>, kept: boolean): Promise<number> {
    const submission = {
      id: await newId(this.run.db, 'Submission'),
      projectId: this.run.project.id,
      clientId: this.run.client.id,
      dealId: this.#id,
      blockId,
      variables,
      kept,
    };
    this.run.later((tx) => recordSubmission(tx, submission));
    this.#submissionIds.push(submission.id);
    return submission.id;
  }
}
