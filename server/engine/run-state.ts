import { toDisplayString } from '@/lib/formula';
import { isBotPaused } from '@/lib/inbox/pause';
import type { Attachment, Block, Buttons } from '@/lib/schema';
import { withSecretSentinels } from '@/lib/secrets/secret-refs';
import { findPlaceholders, renderTemplate, type TemplateContext } from '@/lib/template';
import type { LockedClient } from '@/server/contacts/client-service';
import { closeDeal, moveDeal, recordSubmission } from '@/server/contacts/deal-service';
import { writeListMembership } from '@/server/contacts/list-service';
import { splitScope } from '@/server/contacts/variable-limits';
import { applyVariableChanges, type VariableWrites } from '@/server/contacts/variable-store';
import type { PrismaClient } from '@/server/db/client-type';
import type { CrmStateKind, Plan, Prisma } from '@/server/db/generated/client';
import { plainSql } from '@/server/db/raw-sql';
import { createFormulaHost } from '@/server/engine/functions/formula-host';
import { DomainError } from '@/server/errors';
import { askForOperator, endPause } from '@/server/inbox/handoff';
import { withSecrets } from '@/server/secrets/secret-http';
import { loadSecrets } from '@/server/secrets/secret-service';
import type { HttpClient } from './block-request';
import type { CompiledBot } from './compiled-bot';
import type { EngineDeps } from './engine-deps';
import { EngineScope } from './engine-scope';
import { type ChainLimit, EventChain } from './event-chain';
import type { EngineEvent, LogEntry, LogKind } from './events';
import { getExpression } from './formula-cache';
import { type NumberedTable, nextIds } from './store/ids';
import { type SystemState, systemVariable } from './system-variables';

/** Blocks entered in one event at most: a loop of continue arrows or 0-second timers stops here. */
export const MAX_BLOCKS_PER_EVENT = 50;

export type RunClient = LockedClient;

export interface RunProject {
  id: number;
  plan: Plan;
  timeZone: string;
}

export interface PendingMessage {
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
  blockId: number | null;
  messageFromOutside: number;
  /** The team member who sent it (an operator's reply). */
  senderMemberId?: number;
  dedupeKey?: string;
}

/** The incoming message of a `message` event, stored with the event's other writes. */
export interface PendingIncoming {
  text: string;
  attachments: Attachment[];
  /** The block the client was in when it arrived. */
  blockId: number | null;
  messageFromOutside: number;
  dedupeKey?: string;
  /** The team member it came from (a deal moved on the board). */
  senderMemberId?: number;
}

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

/** Thrown when an event entered too many blocks: the event stops there, its writes kept. */
export class LoopGuard extends Error {}

/** A write of the event, carried out in its final transaction, in the order it was made. */
export type LaterWrite = (tx: Prisma.TransactionClient) => Promise<unknown>;

/**
 * The state of one event for one client, under the client's lease with no transaction open:
 * what it read, and what it collected to write (in the final transaction) and to send. The
 * steps (`steps/`), the routing and the formula host change it only through its methods.
 */
export class RunState {
  #incoming: PendingIncoming | null = null;
  readonly #outgoing: PendingMessage[] = [];
  readonly #log: LogEntry[] = [];
  readonly #scheduled: NewScheduledSend[] = [];
  readonly #cancelledJobs: string[] = [];
  /** Variable changes set aside for the end: a deal closed meanwhile keeps its own. */
  readonly #variableWrites: VariableWrites = { deals: new Map(), client: new Map() };
  /** Writes beyond messages, variables and the log, for the final transaction. */
  readonly #writes: LaterWrite[] = [];
  /** List memberships this event changed: reads see them before they are written. */
  private readonly listChanges = new Map<number, boolean>();
  /** Events for other clients, handled after the commit (each under its own client's lease). */
  readonly #deferred: { clientId: number; event: EngineEvent }[] = [];
  readonly #system: SystemState;
  readonly scope: EngineScope;
  /**
   * Every outgoing request of the event (formulas, block and condition requests) goes here,
   * project secrets put in as it is sent (docs/secrets.md).
   */
  readonly http: HttpClient;
  /** The project's secrets, read once an event's request first refers to one. */
  #secrets: Promise<ReadonlyMap<string, string>> | undefined;
  /** One host for the whole event, so its call cap counts the event's calls, not one formula's. */
  private readonly host = createFormulaHost(this);
  private blocksEntered = 0;
  /** When the event began running (performance.now()): AI calls fit in what is left of its lease. */
  readonly startedAt = performance.now();
  /** Blocks a formula's message() asked for: entered once the current block is done. */
  readonly #queuedBlocks: Block[] = [];
  /** The last block request's reply in this event, kept on the client for the webhook; null: none ran. */
  #customAnswer: string | null = null;
  /** The channel's state of the client the event brought (null removes a key). */
  #channelState: Readonly<Record<string, string | null>> = {};
  /** The event's submissions: each one's webhook goes in the outbox with the event. */
  readonly #submissionIds: number[] = [];
  #dealId: number;
  /** The handoff's pause (docs/inbox.md): while it lasts the event enters no block. */
  #paused: boolean;

  constructor(
    readonly deps: EngineDeps,
    /** Reads outside any transaction; writes go to `later`. */
    readonly db: PrismaClient,
    readonly project: RunProject,
    readonly bot: CompiledBot,
    readonly client: Readonly<RunClient>,
    dealId: number,
    variables: ConstructorParameters<typeof EngineScope>[0],
    messenger: string,
    /** The budget shared with the event that caused this one and every event this one causes. */
    readonly chain: EventChain = new EventChain(),
  ) {
    this.#dealId = dealId;
    this.#currentBlockId = client.currentBlockId;
    this.#paused = isBotPaused(client, deps.now());
    this.http = withSecrets(
      chain.guard(deps.http, (message) => this.limitReached('requests', { message })),
      () => (this.#secrets ??= loadSecrets(db, project.id)),
    );
    this.#system = {
      clientId: client.id,
      platformId: client.platformId,
      clientType: client.clientType,
      groupId: client.groupId,
      clientName: client.name,
      clientCreatedAt: client.createdAt,
      question: '',
      currentBlockId: client.currentBlockId,
      customAnswer: '',
      dealId,
      attachmentUrl: '',
      callbackQueryId: '',
      messageFromOutside: 0,
      messenger,
      timeZone: project.timeZone,
      now: deps.now(),
    };
    this.scope = new EngineScope(variables, (name) => systemVariable(this.#system, name));
  }

  #currentBlockId: number | null;

  // What the event collected, for its final write and what follows the commit.
  get incoming(): Readonly<PendingIncoming> | null {
    return this.#incoming;
  }
  get outgoing(): readonly PendingMessage[] {
    return this.#outgoing;
  }
  get log(): readonly LogEntry[] {
    return this.#log;
  }
  get scheduled(): readonly NewScheduledSend[] {
    return this.#scheduled;
  }
  get cancelledJobs(): readonly string[] {
    return this.#cancelledJobs;
  }
  get variableWrites(): Readonly<VariableWrites> {
    return this.#variableWrites;
  }
  get writes(): readonly LaterWrite[] {
    return this.#writes;
  }
  get deferred(): readonly { clientId: number; event: EngineEvent }[] {
    return this.#deferred;
  }
  get system(): Readonly<SystemState> {
    return this.#system;
  }
  get dealId(): number {
    return this.#dealId;
  }
  /** The client's block: where it ends up once the event is done. */
  get currentBlockId(): number | null {
    return this.#currentBlockId;
  }
  get customAnswer(): string | null {
    return this.#customAnswer;
  }
  get channelState(): Readonly<Record<string, string | null>> {
    return this.#channelState;
  }
  setChannelState(state: Readonly<Record<string, string | null>>): void {
    this.#channelState = state;
  }
  get hasSubmitted(): boolean {
    return this.#submissionIds.length > 0;
  }
  get submissionIds(): readonly number[] {
    return this.#submissionIds;
  }
  /** Whether an operator has the bot paused for this client (from the start or by ask_operator()). */
  get paused(): boolean {
    return this.#paused;
  }

  /**
   * ask_operator(): the conversation waits for an operator, and the bot is paused from here on
   * (until `until`, null: until resumed by hand). A pause already on is kept as it is.
   */
  askOperator(until: Date | null): void {
    const at = this.deps.now();
    const pause = this.#paused ? null : { at, until };
    this.#paused = true;
    const clientId = this.client.id;
    this.later((tx) => askForOperator(tx, clientId, at, pause));
  }

  /** The bot takes the conversation back (a callback it caught while paused): the pause ends with the event. */
  resumeBot(): void {
    this.#paused = false;
    const clientId = this.client.id;
    this.later((tx) => endPause(tx, clientId));
  }

  /**
   * A log entry. `sentBefore` (the messages the event had sent by then) places it in the chat:
   * the simulator shows its warnings there.
   */
  note(kind: LogKind, data: Record<string, unknown>): void {
    this.#log.push({ kind, data: { sentBefore: this.#outgoing.length, ...data } });
  }

  /** The incoming message of a `message` event, and what the system variables say of it. */
  receive(
    incoming: PendingIncoming,
    system: Pick<SystemState, 'question' | 'attachmentUrl' | 'callbackQueryId'>,
  ): void {
    this.#incoming = incoming;
    Object.assign(this.#system, system);
    this.#system.messageFromOutside = incoming.messageFromOutside;
  }

  /** Where what the event sends comes from (bot-semantics §3's message_from_outside). */
  setMessageFromOutside(from: number): void {
    this.#system.messageFromOutside = from;
  }

  /** An outgoing message, stored and sent with the event. */
  send(message: PendingMessage): void {
    this.#outgoing.push(message);
  }

  /** A block request's reply: `#{custom_answer}` now, and the client's for the webhook. */
  setCustomAnswer(body: string): void {
    this.#system.customAnswer = body;
    this.#customAnswer = body;
  }

  /**
   * The client moves into the block (its kind says it does). Moving out of a block cancels the
   * client's "cancel if left" timers scheduled in it (bot-semantics §2), with the event.
   */
  async moveClientTo(blockId: number): Promise<void> {
    const left = this.#currentBlockId;
    this.#currentBlockId = blockId;
    this.#system.currentBlockId = blockId;
    if (left === blockId || !this.bot.cancelsOnLeaving) return;
    const timers = await this.pendingTimers();
    this.cancelTimerRows(
      timers.filter((t) => t.cancelIfLeft && t.blockId === left),
      left === null ? `the client moved into block #${blockId}` : `the client left block #${left}`,
    );
  }

  /** A block for `message()` with a block id: entered once the current block is done. */
  queueBlock(block: Block): void {
    this.#queuedBlocks.push(block);
  }

  takeQueuedBlocks(): Block[] {
    return this.#queuedBlocks.splice(0);
  }

  /** Counts a block entered; past the bound the event stops (`LoopGuard`). */
  enteringBlock(blockId: number): void {
    if (++this.blocksEntered <= MAX_BLOCKS_PER_EVENT) return;
    this.limitReached('blocks', {
      blockId,
      message: `Stopped after ${MAX_BLOCKS_PER_EVENT} blocks in one event: check the bot for a loop of continue arrows, 0-second timers, message() calls or not_state blocks.`,
    });
    throw new LoopGuard();
  }

  /** A write for the event's final transaction. */
  later(write: LaterWrite): void {
    this.#writes.push(write);
  }

  /** An id for a row this event creates in its final write (sequences never roll back). */
  async newId(table: NumberedTable): Promise<number> {
    const [row] = await plainSql(this.db).run(nextIds[table], {});
    return row.id;
  }

  /** Whether the client is in the list, with this event's own changes. */
  async inList(listId: number): Promise<boolean> {
    const changed = this.listChanges.get(listId);
    if (changed !== undefined) return changed;
    return (await this.db.clientListMember.count({ where: { listId, clientId: this.client.id } })) > 0;
  }

  /** The list's size, with this event's own change. */
  async listSize(listId: number): Promise<number> {
    const stored = await this.db.clientListMember.count({ where: { listId } });
    const changed = this.listChanges.get(listId);
    if (changed === undefined) return stored;
    const storedMember =
      (await this.db.clientListMember.count({ where: { listId, clientId: this.client.id } })) > 0;
    return stored + Number(changed) - Number(storedMember);
  }

  /** Adds the client to a list or removes it from it (the list is known to exist). */
  setListMember(listId: number, member: boolean): void {
    this.listChanges.set(listId, member);
    this.later((tx) => writeListMembership(tx, this.project.id, listId, [this.client.id], member));
  }

  /** Other clients' variables this event set (`set_client_var`): reads see them first. */
  private readonly otherClients = new Map<string, string | null>();

  otherClientVariable(clientId: number, name: string): string | null | undefined {
    return this.otherClients.get(`${clientId}:${name}`);
  }

  /** Sets another client's profile variable, written (with its limits checked) at the end. */
  setOtherClientVariable(clientId: number, name: string, value: string | null): void {
    this.otherClients.set(`${clientId}:${name}`, value);
    const target = { projectId: this.project.id, clientId, dealId: 0 };
    this.later((tx) => applyVariableChanges(tx, target, [{ name, value }]));
  }

  /** A submission of the open deal's variables, written with the event; returns its id. */
  async addSubmission(blockId: number, variables: Record<string, string>, kept: boolean): Promise<number> {
    const submission = {
      id: await this.newId('Submission'),
      projectId: this.project.id,
      clientId: this.client.id,
      dealId: this.#dealId,
      blockId,
      variables,
      kept,
    };
    this.later((tx) => recordSubmission(tx, submission));
    this.#submissionIds.push(submission.id);
    return submission.id;
  }

  /** Deals this event moved to another stage: a live event each after the commit (the board). */
  readonly #movedDeals: number[] = [];
  get movedDeals(): readonly number[] {
    return this.#movedDeals;
  }

  /**
   * Moves the open deal to a CRM stage (known to exist). A won or lost stage closes it and
   * opens the client's next one, empty, as a close_deal block does (docs/crm.md).
   */
  async setDealState(state: { id: number; kind: CrmStateKind; name: string }): Promise<void> {
    const dealId = this.dealId;
    this.later((tx) => moveDeal(tx, dealId, state.id));
    this.#movedDeals.push(dealId);
    this.note('deal_moved', { dealId, stateId: state.id, stage: state.name, kind: state.kind });
    if (state.kind !== 'open') await this.closeDeal();
  }

  /**
   * Closes the open deal with the variables collected so far and opens the next one, empty
   * (close_deal blocks, create_order()). Returns the new deal's id.
   */
  async closeDeal(): Promise<number> {
    this.flushVariables();
    const closed = this.dealId;
    const next = await this.newId('Deal');
    const at = this.deps.now();
    const data = { id: next, projectId: this.project.id, clientId: this.client.id };
    this.later((tx) => closeDeal(tx, { dealId: closed, at }, data));
    this.#dealId = next;
    this.#system.dealId = next;
    this.scope.discardDeal();
    return next;
  }

  /**
   * A limit stopped something: an entry in the run's log (the simulator shows it) the first time
   * in this event, and a server log line the first time in the chain.
   */
  limitReached(limit: ChainLimit, data: { message: string } & Record<string, unknown>): void {
    if (!this.log.some((e) => e.kind === 'loop_guard' && e.data.limit === limit))
      this.note('loop_guard', { limit, ...data });
    if (this.chain.firstStop(limit))
      console.warn(`[engine] project ${this.project.id}, client ${this.client.id}: ${data.message}`);
  }

  /** An event for another client, handled after the commit, within this chain's budget. */
  defer(clientId: number, event: EngineEvent): void {
    const refused = this.chain.takeFollowUp();
    if (refused) {
      this.limitReached('follow_ups', { message: refused, clientId });
      throw new Error(refused);
    }
    this.#deferred.push({ clientId, event });
  }

  requireBlock(blockId: number): Block {
    const block = this.bot.blocks.get(blockId);
    if (!block) throw new DomainError('not_found', `Block ${blockId} does not exist in this bot.`);
    return block;
  }

  /** A timer or delayed message done with (sent or cancelled), with the event. */
  finishScheduled(id: number, status: 'sent' | 'cancelled') {
    this.forgetTimers(new Set([id]));
    const doneAt = this.deps.now();
    this.later((tx) => tx.scheduledSend.update({ where: { id }, data: { status, doneAt } }));
  }

  setVariable(name: string, value: string | null): boolean {
    try {
      this.scope.set(name, value);
      return true;
    } catch (error) {
      this.note('variable_error', { name, message: (error as Error).message });
      return false;
    }
  }

  formulaOptions() {
    return {
      store: this.scope,
      host: this.host,
      plan: this.project.plan,
      now: this.deps.now,
      random: this.deps.random,
      timeZone: this.project.timeZone,
    };
  }

  /** `#{...}` substitution; expressions (`#{2+2}`) are evaluated first, as they may be async. */
  render(text: string, mode: 'text' | 'url' = 'text'): string {
    return renderTemplate(text, this.templateContext(), { mode }).text;
  }

  private expressionValues = new Map<string, string>();
  /** Names `#{...}` read that no variable has, logged once per event: they render empty. */
  private readonly unknownNames = new Set<string>();

  /**
   * The variables and the expressions `prepareExpressions` evaluated, for substitution. A
   * request's (`forRequest`) leaves `#{secret.NAME}` for the HTTP client to fill.
   */
  templateContext(forRequest = false): TemplateContext {
    const lookup = (name: string) => {
      const value = this.scope.get(name);
      if (value === undefined && !this.unknownNames.has(name)) {
        this.unknownNames.add(name);
        this.note('unknown_variable', { name });
      }
      return value;
    };
    return {
      lookup: forRequest ? withSecretSentinels(lookup) : lookup,
      evaluate: (expr) => this.expressionValues.get(expr) ?? '',
    };
  }

  /**
   * Evaluates the expressions the texts need, for the `render` calls that follow. Fresh each
   * time: a formula, a request's stored values or a system variable may have changed since.
   */
  async prepareExpressions(...texts: string[]): Promise<void> {
    this.expressionValues = new Map();
    for (const text of texts) {
      if (!text.includes('#{')) continue;
      // Two passes: the first learns which expressions the text needs (nested names resolved).
      const wanted = new Set<string>();
      renderTemplate(
        text,
        this.scope.templateContext((expr) => {
          wanted.add(expr);
          return '';
        }),
      );
      for (const p of findPlaceholders(text))
        if (p.kind === 'expression' && p.expression) wanted.add(p.expression);
      for (const expression of wanted) {
        if (this.expressionValues.has(expression)) continue;
        const compiled = getExpression(expression);
        try {
          this.expressionValues.set(
            expression,
            toDisplayString(await compiled.evaluate(this.formulaOptions())),
          );
        } catch (error) {
          this.note('formula_error', { expression, message: (error as Error).message });
          this.expressionValues.set(expression, '');
        }
      }
    }
  }

  /**
   * A timer or delayed message, its row written with the event and its job queued after the
   * commit. Returns its id.
   */
  async addScheduledSend(
    send: Omit<Prisma.ScheduledSendUncheckedCreateInput, 'id' | 'projectId' | 'runAt' | 'kind'> & {
      kind: 'delayed_message' | 'scheduled_message';
      clientId: number;
      runAt: Date;
    },
  ): Promise<{ id: number }> {
    const row = { id: await this.newId('ScheduledSend'), projectId: this.project.id, ...send };
    this.later((tx) => tx.scheduledSend.create({ data: row }));
    this.#scheduled.push({ id: row.id, clientId: send.clientId, runAt: send.runAt });
    return { id: row.id };
  }

  /**
   * A timer arrow's timer for the client, written with the event. At most one is pending per
   * client and arrow (bot-semantics §2): one already pending is cancelled, so entering the
   * block again restarts its timer. `runAt` null: the timer is followed at once, so only the
   * pending one is cancelled. Returns the new timer's id.
   */
  async scheduleTimer(timer: {
    arrowId: number;
    /** The block the client is in once the source block is entered: "left" is measured from it. */
    blockId: number | null;
    cancelIfLeft: boolean;
    runAt: Date | null;
  }): Promise<{ id: number } | null> {
    const timers = await this.pendingTimers();
    this.cancelTimerRows(
      timers.filter((t) => t.arrowId === timer.arrowId),
      'restarted: the client entered its block again',
    );
    if (!timer.runAt) return null;
    const row = {
      id: await this.newId('ScheduledSend'),
      projectId: this.project.id,
      clientId: this.client.id,
      kind: 'timer' as const,
      arrowId: timer.arrowId,
      blockId: timer.blockId,
      payload: { cancelIfLeft: timer.cancelIfLeft },
      runAt: timer.runAt,
    };
    this.later((tx) => tx.scheduledSend.create({ data: row }));
    this.#scheduled.push({ id: row.id, clientId: row.clientId, runAt: row.runAt });
    const { arrowId, blockId, cancelIfLeft } = timer;
    timers.push({ id: row.id, arrowId, blockId, cancelIfLeft, jobId: null });
    return { id: row.id };
  }

  /** The client's pending timers as this event leaves them; read once, when first needed. */
  #pendingTimers: PendingTimer[] | null = null;
  /** Timers this event fired or cancelled itself: pending in the database until its final write. */
  readonly #finishedTimers = new Set<number>();

  private async pendingTimers(): Promise<PendingTimer[]> {
    if (this.#pendingTimers) return this.#pendingTimers;
    const rows = await this.db.scheduledSend.findMany({
      where: { projectId: this.project.id, clientId: this.client.id, kind: 'timer', status: 'pending' },
      select: { id: true, arrowId: true, blockId: true, payload: true, jobId: true },
      orderBy: { id: 'asc' },
    });
    this.#pendingTimers = rows
      .filter((row) => !this.#finishedTimers.has(row.id))
      .map(({ payload, ...row }) => ({
        cancelIfLeft: (payload as { cancelIfLeft?: boolean } | null)?.cancelIfLeft === true,
        ...row,
      }));
    return this.#pendingTimers;
  }

  /** Timers this event is done with: no longer pending for the rest of it. */
  private forgetTimers(ids: ReadonlySet<number>): void {
    for (const id of ids) this.#finishedTimers.add(id);
    const timers = this.#pendingTimers ?? [];
    for (let i = timers.length - 1; i >= 0; i--) if (ids.has(timers[i].id)) timers.splice(i, 1);
  }

  /** Cancels the client's pending timers: the arrow's "cancel the client's other timers". */
  async cancelTimers(byArrowId: number): Promise<void> {
    this.cancelTimerRows(
      [...(await this.pendingTimers())],
      `arrow #${byArrowId} cancels the client's other timers`,
    );
  }

  /**
   * Cancels pending timers: their rows with the event, their jobs after the commit (a timer of
   * this event's own is never queued).
   */
  private cancelTimerRows(timers: readonly PendingTimer[], reason: string): void {
    if (!timers.length) return;
    const ids = new Set(timers.map((t) => t.id));
    this.forgetTimers(ids);
    for (let i = this.#scheduled.length - 1; i >= 0; i--)
      if (ids.has(this.#scheduled[i].id)) this.#scheduled.splice(i, 1);
    for (const t of timers) if (t.jobId) this.#cancelledJobs.push(t.jobId);
    const doneAt = this.deps.now();
    this.later((tx) =>
      tx.scheduledSend.updateMany({ where: { id: { in: [...ids] } }, data: { status: 'cancelled', doneAt } }),
    );
    for (const t of timers)
      this.note('timer_cancelled', { arrowId: t.arrowId, scheduledSendId: t.id, reason });
  }

  /**
   * Sets the variable changes so far aside for the deal they belong to; they are written with
   * the event's other writes at its end. The scope checked every limit as they were made.
   */
  flushVariables(): void {
    for (const { name, value } of this.scope.takeChanges()) {
      const { scope, name: bare } = splitScope(name);
      if (scope === 'client') {
        this.#variableWrites.client.set(bare, value);
        continue;
      }
      const deal = this.#variableWrites.deals.get(this.#dealId) ?? new Map<string, string | null>();
      this.#variableWrites.deals.set(this.#dealId, deal.set(bare, value));
    }
  }
}
