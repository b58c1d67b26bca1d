import { writeListMembership } from '@/server/contacts/list-service';
import type { RunHost } from './run-context';

/** The client's list memberships as the event changes them: reads see its changes before they are written. */
export class RunLists {
  readonly #changes = new Map<number, boolean>();

  constructor(private readonly run: RunHost) {}

  /** Whether the client is in the list, with this event's own changes. */
  async has(listId: number): Promise<boolean> {
    const changed = this.#changes.get(listId);
    if (changed !== undefined) return changed;
    return this.storedMember(listId);
  }

  /** The list's size, with this event's own change. */
  async size(listId: number): Promise<number> {
    const stored = await this.run.db.clientListMember.count({ where: { listId } });
    const changed = this.#changes.get(listId);
    if (changed === undefined) return stored;
    return stored + Number(changed) - Number(await this.storedMember(listId));
  }

  /** Adds the client to a list or removes it from it (the list is known to exist), with the event. */
  set(listId: number, member: boolean): void {
    this.#changes.set(listId, member);
    const { project, client } = this.run;
    this.run.later((tx) => writeListMembership(tx, project.id, listId, [client.id], member));
  }

  private async storedMember(listId: number): Promise<boolean> {
    const where = { listId, clientId: this.run.client.id };
    return (await this.run.db.clientListMember.count({ where })) > 0;
  }
}
