import type { Prisma } from '@/server/db/generated/client';
import type { RunHost } from './run-context';
import { newId } from './store/ids';

/** A timer or delayed message the event scheduled: its job is queued after the commit. */
export interface NewScheduledSend {
  id: number;
  clientId: number;
  runAt: Date;
}

/** A pending timer of the event's client. */
interface PendingTimer {
  id: number;
  arrowId: number | null;
  /** The block the client was in when it was scheduled. */
  blockId: number | null;
  cancelIfLeft: boolean;
  jobId: string | null;
}

/**
 * The event's timers and delayed messages (bot-semantics §2): rows written with the event, their
 * jobs queued (and those of cancelled timers cancelled) after the commit. The client's pending
 * timers are read once, when the event first needs them, and kept as the event leaves them.
 */
export class RunTimers {
  readonly #scheduled: NewScheduledSend[] = [];
  readonly #cancelledJobs: string[] = [];
  /** The client's pending timers as this event leaves them; read once, when first needed. */
  #pending: PendingTimer[] | null = null;
  /** Timers this event fired or cancelled itself: pending in the database until its final write. */
  readonly #finished = new Set<number>();

  constructor(private readonly run: RunHost) {}

  get scheduled(): readonly NewScheduledSend[] {
    return this.#scheduled;
  }
  get cancelledJobs(): readonly string[] {
    return this.#cancelledJobs;
  }

  /** A delayed or scheduled message (message()'s timeout). Returns its id. */
  async scheduleSend(
    send: Omit<Prisma.ScheduledSendUncheckedCreateInput, 'id' | 'projectId' | 'runAt' | 'kind'> & {
      kind: 'delayed_message' | 'scheduled_message';
      clientId: number;
      runAt: Date;
    },
  ): Promise<{ id: number }> {
    const row = { id: await newId(this.run.db, 'ScheduledSend'), projectId: this.run.project.id, ...send };
    this.run.later((tx) => tx.scheduledSend.create({ data: row }));
    this.#scheduled.push({ id: row.id, clientId: send.clientId, runAt: send.runAt });
    return { id: row.id };
  }

  /**
   * A timer arrow's timer for the client. At most one is pending per client and arrow: one
   * already pending is cancelled, so entering the block again restarts its timer. `runAt` null:
   * the timer is followed at once, so only the pending one is cancelled. Returns the new timer's id.
   */
  async schedule(timer: {
    arrowId: number;
    /** The block the client is in once the source block is entered: "left" is measured from it. */
    blockId: number | null;
    cancelIfLeft: boolean;
    runAt: Date | null;
  }): Promise<{ id: number } | null> {
    const timers = await this.pending();
    this.cancel(
      timers.filter((t) => t.arrowId === timer.arrowId),
      'restarted: the client entered its block again',
    );
    if (!timer.runAt) return null;
    const row = {
      id: await newId(this.run.db, 'ScheduledSend'),
      projectId: this.run.project.id,
      clientId: this.run.client.id,
      kind: 'timer' as const,
      arrowId: timer.arrowId,
      blockId: timer.blockId,
      payload: { cancelIfLeft: timer.cancelIfLeft },
      runAt: timer.runAt,
    };
    this.run.later((tx) => tx.scheduledSend.create({ data: row }));
    this.#scheduled.push({ id: row.id, clientId: row.clientId, runAt: row.runAt });
    const { arrowId, blockId, cancelIfLeft } = timer;
    timers.push({ id: row.id, arrowId, blockId, cancelIfLeft, jobId: null });
    return { id: row.id };
  }

  /** Cancels the client's pending timers: the arrow's "cancel the client's other timers". */
  async cancelAll(byArrowId: number): Promise<void> {
    this.cancel([...(await this.pending())], `arrow #${byArrowId} cancels the client's other timers`);
  }

  /** The client moved from block `left` into `entered`: its "cancel if left" timers of `left` are cancelled. */
  async leftBlock(left: number | null, entered: number): Promise<void> {
    const timers = await this.pending();
    this.cancel(
      timers.filter((t) => t.cancelIfLeft && t.blockId === left),
      left === null ? `the client moved into block #${entered}` : `the client left block #${left}`,
    );
  }

  /** A timer or delayed message done with (sent or cancelled), with the event. */
  finish(id: number, status: 'sent' | 'cancelled'): void {
    this.forget(new Set([id]));
    const doneAt = this.run.now();
    this.run.later((tx) => tx.scheduledSend.update({ where: { id }, data: { status, doneAt } }));
  }

  private async pending(): Promise<PendingTimer[]> {
    if (this.#pending) return this.#pending;
    const { project, client } = this.run;
    const rows = await this.run.db.scheduledSend.findMany({
      where: { projectId: project.id, clientId: client.id, kind: 'timer', status: 'pending' },
      select: { id: true, arrowId: true, blockId: true, payload: true, jobId: true },
      orderBy: { id: 'asc' },
    });
    this.#pending = rows
      .filter((row) => !this.#finished.has(row.id))
      .map(({ payload, ...row }) => ({
        cancelIfLeft: (payload as { cancelIfLeft?: boolean } | null)?.cancelIfLeft === true,
        ...row,
      }));
    return this.#pending;
  }

  /** Timers this event is done with: no longer pending for the rest of it. */
  private forget(ids: ReadonlySet<number>): void {
    for (const id of ids) this.#finished.add(id);
    const timers = this.#pending ?? [];
    for (let i = timers.length - 1; i >= 0; i--) if (ids.has(timers[i].id)) timers.splice(i, 1);
  }

  /**
   * Cancels pending timers: their rows with the event, their jobs after the commit (a timer of
   * this event's own is never queued).
   */
  private cancel(timers: readonly PendingTimer[], reason: string): void {
    if (!timers.length) return;
    const ids = new Set(timers.map((t) => t.id));
    this.forget(ids);
    for (let i = this.#scheduled.length - 1; i >= 0; i--)
      if (ids.has(this.#scheduled[i].id)) this.#scheduled.splice(i, 1);
    for (const t of timers) if (t.jobId) this.#cancelledJobs.push(t.jobId);
    const doneAt = this.run.now();
    this.run.later((tx) =>
      tx.scheduledSend.updateMany({ where: { id: { in: [...ids] } }, data: { status: 'cancelled', doneAt } }),
    );
    for (const t of timers)
      this.run.note('timer_cancelled', { arrowId: t.arrowId, scheduledSendId: t.id, reason });
  }
}
