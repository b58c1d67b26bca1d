import { isTruthy, toDisplayString } from '@/lib/formula';
import {
  type Arrow,
  type Attachment,
  type Block,
  type Button,
  type Buttons,
  buttonSchema,
  type Condition,
  type Timer,
} from '@/lib/schema';
import { findPlaceholders, renderTemplate } from '@/lib/template';
import type { LockedClient } from '@/server/clients/client-service';
import type { PrismaClient } from '@/server/db/client-type';
import type { Plan, Prisma } from '@/server/db/generated/client';
import { plainSql } from '@/server/db/raw-sql';
import { DomainError } from '@/server/errors';
import { createFormulaHost } from '@/server/functions/formula-host';
import { MESSAGE_FROM } from '@/server/history/history-service';
import { splitScope } from '@/server/variables/limits';
import { applyVariableChanges, type VariableWrites } from '@/server/variables/variable-store';
import { type HttpClient, runBlockRequest } from './block-request';
import { type CompiledBot, movesClient } from './compiled-bot';
import type { EngineDeps } from './engine-deps';
import { EngineScope } from './engine-scope';
import { type ChainLimit, EventChain } from './event-chain';
import type { EngineEvent, LogEntry, LogKind } from './events';
import { getExpression, getFormula } from './formula-cache';
import { routeMessage } from './routing';
import { parseLocalDateTime, type SystemState, systemVariable } from './system-variables';

/** Blocks entered in one event at most: a chain of 0-second timers that loops stops here. */
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
  dedupeKey?: string;
}

/** The incoming message of a `message` event, stored with the event's other writes. */
export interface PendingIncoming {
  text: string;
  attachments: Attachment[];
  /** The block the client was in when it arrived. */
  blockId: number | null;
  messageFromOutside: number;
}

export interface NewScheduledSend {
  id: number;
  clientId: number;
  runAt: Date;
}

class LoopGuard extends Error {}

/** A write of the event, carried out in its final transaction, in the order it was made. */
export type LaterWrite = (tx: Prisma.TransactionClient) => Promise<unknown>;

/** Tables whose new rows the event numbers itself, as their id is needed before the final write. */
type NumberedTable = 'Deal' | 'Submission' | 'ScheduledSend';

/**
 * One event for one client, under the client's lease with no transaction open: routes the
 * event, enters blocks, runs formulas and requests, reads what it needs as it goes, and
 * collects what must be written (in the final transaction) and sent.
 */
export class EventRun {
  incoming: PendingIncoming | null = null;
  readonly outgoing: PendingMessage[] = [];
  readonly log: LogEntry[] = [];
  readonly scheduled: NewScheduledSend[] = [];
  readonly cancelledJobs: string[] = [];
  /** Variable changes set aside for the end: a deal closed meanwhile keeps its own. */
  readonly variableWrites: VariableWrites = { deals: new Map(), client: new Map() };
  /** Writes beyond messages, variables and the log, for the final transaction. */
  readonly writes: LaterWrite[] = [];
  /** List memberships this event changed: reads see them before they are written. */
  private readonly listChanges = new Map<number, boolean>();
  /** Events for other clients, handled after the commit (each under its own client's lease). */
  readonly deferred: { clientId: number; event: EngineEvent }[] = [];
  readonly system: SystemState;
  readonly scope: EngineScope;
  /** Every outgoing request of the event (formulas, block and condition requests) goes here. */
  readonly http: HttpClient;
  /** One host for the whole event, so its call cap counts the event's calls, not one formula's. */
  private readonly host = createFormulaHost(this);
  private blocksEntered = 0;
  /** Blocks a formula's message() asked for: entered once the current block is done. */
  readonly queuedBlocks: Block[] = [];
  /** The last block request's reply in this event, kept on the client for the webhook; null: none ran. */
  customAnswer: string | null = null;
  private submitted = false;

  constructor(
    readonly deps: EngineDeps,
    /** Reads outside any transaction; writes go to `later`. */
    readonly db: PrismaClient,
    readonly project: RunProject,
    readonly bot: CompiledBot,
    readonly client: RunClient,
    public dealId: number,
    variables: ConstructorParameters<typeof EngineScope>[0],
    messenger: string,
    /** The budget shared with the event that caused this one and every event this one causes. */
    readonly chain: EventChain = new EventChain(),
  ) {
    this.http = chain.guard(deps.http, (message) => this.stopped('requests', { message }));
    this.system = {
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
    this.scope = new EngineScope(variables, (name) => systemVariable(this.system, name));
  }

  note(kind: LogKind, data: Record<string, unknown>): void {
    this.log.push({ kind, data });
  }

  /** A write for the event's final transaction. */
  later(write: LaterWrite): void {
    this.writes.push(write);
  }

  /** An id for a row this event creates in its final write (sequences never roll back). */
  async newId(table: NumberedTable): Promise<number> {
    const [row] = await plainSql(this.db).query<{ id: number | string }>(
      `SELECT nextval(pg_get_serial_sequence('"${table}"', 'id'))::int AS id`,
    );
    return Number(row.id);
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
    const row = { listId, clientId: this.client.id };
    this.later((tx) =>
      member
        ? tx.clientListMember.createMany({
            data: [{ ...row, projectId: this.project.id }],
            skipDuplicates: true,
          })
        : tx.clientListMember.deleteMany({ where: row }),
    );
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

  /** Moves the open deal to a CRM state (known to exist). */
  setDealState(stateId: number): void {
    const dealId = this.dealId;
    this.later((tx) => tx.deal.update({ where: { id: dealId }, data: { stateId } }));
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
    this.later(async (tx) => {
      await tx.deal.update({ where: { id: closed }, data: { closedAt: at } });
      await tx.deal.create({ data });
    });
    this.dealId = next;
    this.system.dealId = next;
    this.scope.discardDeal();
    return next;
  }

  /**
   * A limit stopped something: an entry in the run's log (the simulator shows it) the first time
   * in this event, and a server log line the first time in the chain.
   */
  private stopped(limit: ChainLimit, data: { message: string } & Record<string, unknown>): void {
    if (!this.log.some((e) => e.kind === 'loop_guard' && e.data.limit === limit))
      this.note('loop_guard', { limit, ...data });
    if (this.chain.firstStop(limit))
      console.warn(`[engine] project ${this.project.id}, client ${this.client.id}: ${data.message}`);
  }

  /** An event for another client, handled after the commit, within this chain's budget. */
  defer(clientId: number, event: EngineEvent): void {
    const refused = this.chain.takeFollowUp();
    if (refused) {
      this.stopped('follow_ups', { message: refused, clientId });
      throw new Error(refused);
    }
    this.deferred.push({ clientId, event });
  }

  async process(event: EngineEvent): Promise<void> {
    try {
      await this.dispatch(event);
    } catch (error) {
      if (!(error instanceof LoopGuard)) throw error;
    }
  }

  private async dispatch(event: EngineEvent): Promise<void> {
    switch (event.type) {
      case 'message':
        return this.onMessage(event);
      case 'enter_block': {
        this.system.messageFromOutside = event.messageFromOutside;
        return this.enterBlock(this.requireBlock(event.blockId), 'api');
      }
      case 'send':
        this.system.messageFromOutside = event.messageFromOutside;
        this.outgoing.push({
          text: this.render(event.text),
          attachments: event.attachments ?? [],
          buttons: event.buttons ?? null,
          blockId: null,
          messageFromOutside: event.messageFromOutside,
          dedupeKey: event.dedupeKey,
        });
        return;
      case 'scheduled':
        return this.onScheduled(event.scheduledSendId);
    }
  }

  requireBlock(blockId: number): Block {
    const block = this.bot.blocks.get(blockId);
    if (!block) throw new DomainError('not_found', `Block ${blockId} does not exist in this bot.`);
    return block;
  }

  private async onMessage(event: Extract<EngineEvent, { type: 'message' }>) {
    const from = event.messageFromOutside ?? MESSAGE_FROM.client;
    Object.assign(this.system, {
      question: event.text,
      messageFromOutside: from,
      attachmentUrl: event.attachments?.[0]?.url ?? '',
      callbackQueryId: event.callbackQueryId ?? '',
    });
    this.incoming = {
      text: event.text,
      attachments: event.attachments ?? [],
      blockId: this.client.currentBlockId,
      messageFromOutside: from,
    };
    for (const [name, value] of Object.entries(event.variables ?? {})) this.setVariable(name, value);
    this.note('event', { text: event.text, from });

    const target = await routeMessage(this.bot, this.client.currentBlockId, event.text, (condition, arrow) =>
      this.conditionHolds(condition, arrow),
    );
    if (!target) {
      this.note('no_match', { text: event.text, blockId: this.client.currentBlockId });
      return;
    }
    if (target.via === 'arrow' && target.arrow.collectInto)
      this.setVariable(target.arrow.collectInto, event.text);
    await this.enterBlock(target.block, target.via);
  }

  /** The comparison expression and condition request of a matched condition. */
  private async conditionHolds(condition: Condition, arrow?: Arrow): Promise<boolean> {
    if (arrow?.request) await this.blockRequest(arrow.request, { arrowId: arrow.id });
    if (!condition.expression.trim()) return true;
    const compiled = getExpression(condition.expression);
    if (compiled.diagnostics.some((d) => d.severity === 'error')) {
      this.note('formula_error', {
        arrowId: arrow?.id,
        expression: condition.expression,
        message: compiled.diagnostics[0].message,
      });
      return false;
    }
    try {
      return isTruthy(await compiled.evaluate(this.formulaOptions()));
    } catch (error) {
      this.note('formula_error', {
        arrowId: arrow?.id,
        expression: condition.expression,
        message: (error as Error).message,
      });
      return false;
    }
  }

  private async onScheduled(scheduledSendId: number) {
    const send = await this.db.scheduledSend.findFirst({
      where: { id: scheduledSendId, projectId: this.project.id, clientId: this.client.id },
    });
    if (send?.status !== 'pending') return;
    const payload = send.payload as {
      cancelIfLeft?: boolean;
      text?: string;
      blockId?: number;
      attachments?: Attachment[];
    };
    if (send.kind === 'timer') {
      if (payload.cancelIfLeft && this.client.currentBlockId !== send.blockId) {
        this.finishScheduled(send.id, 'cancelled');
        this.note('timer_cancelled', { arrowId: send.arrowId, reason: 'the client left the block' });
        return;
      }
      this.finishScheduled(send.id, 'sent');
      const arrow = [...this.bot.arrowsFrom.values()].flat().find((a) => a.id === send.arrowId);
      this.note('timer_fired', { arrowId: send.arrowId });
      if (!arrow) return;
      this.system.messageFromOutside = 0;
      await this.enterBlock(this.requireBlock(arrow.to), 'timer');
      return;
    }
    this.finishScheduled(send.id, 'sent');
    if (payload.blockId && !payload.text) {
      await this.enterBlock(this.requireBlock(payload.blockId), 'api');
    } else {
      await this.prepareExpressions(payload.text ?? '');
      this.outgoing.push({
        text: this.render(payload.text ?? ''),
        attachments: payload.attachments ?? [],
        buttons: null,
        blockId: payload.blockId ?? null,
        messageFromOutside: MESSAGE_FROM.api,
        // The send's own key: a retried job finds it stored and sends nothing twice.
        dedupeKey: `scheduled-${send.id}`,
      });
    }
  }

  private finishScheduled(id: number, status: 'sent' | 'cancelled') {
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
    return renderTemplate(
      text,
      this.scope.templateContext((expr) => this.expressionValues.get(expr) ?? ''),
      { mode },
    ).text;
  }

  private expressionValues = new Map<string, string>();

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

  /** bot-semantics §1, "What entering a block does, in order". */
  async enterBlock(block: Block, via: string): Promise<void> {
    if (++this.blocksEntered > MAX_BLOCKS_PER_EVENT) {
      this.stopped('blocks', {
        blockId: block.id,
        message: `Stopped after ${MAX_BLOCKS_PER_EVENT} blocks in one event: check the bot for a loop of 0-second timers, message() calls or not_state blocks.`,
      });
      throw new LoopGuard();
    }
    if (block.kind === 'comment') return;
    this.note('block', { blockId: block.id, name: block.name, kind: block.kind, via });

    await this.runActions(block);
    if (block.formula.trim()) await this.runFormula(block);
    if (block.request) await this.blockRequest(block.request, { blockId: block.id });
    await this.sendBlockMessage(block);

    if (block.kind === 'close_deal' || block.kind === 'data_transfer') await this.submit(block);
    if (movesClient(block)) {
      this.client.currentBlockId = block.id;
      this.system.currentBlockId = block.id;
    }
    await this.scheduleTimers(block);
    // message(client_id, '', id) from this block's formula: the client ends up in that block.
    const queued = this.queuedBlocks.splice(0);
    for (const next of queued) await this.enterBlock(next, 'message()');
  }

  private async runActions(block: Block) {
    const actions = block.actions;
    if (!actions) return;
    if (actions.crmStateId) {
      const state = await this.db.crmState.findFirst({
        where: { id: actions.crmStateId, projectId: this.project.id },
      });
      if (state) this.setDealState(state.id);
      else
        this.note('error', { blockId: block.id, message: `CRM state ${actions.crmStateId} does not exist.` });
    }
    const lists = await this.db.clientList.findMany({
      where: { projectId: this.project.id, id: { in: [...actions.addToLists, ...actions.removeFromLists] } },
      select: { id: true },
    });
    const known = new Set(lists.map((l) => l.id));
    for (const id of actions.addToLists) if (known.has(id)) this.setListMember(id, true);
    for (const id of actions.removeFromLists) if (known.has(id)) this.setListMember(id, false);
  }

  private async runFormula(block: Block) {
    const compiled = getFormula(block.formula);
    let errors: { line: number; column: number; message: string }[] = [];
    const set = await this.scope.record(async () => {
      ({ errors } = await compiled.run(this.formulaOptions()));
    });
    this.note('formula', { blockId: block.id, set });
    for (const e of [...compiled.diagnostics.filter((d) => d.severity === 'error'), ...errors]) {
      this.note('formula_error', { blockId: block.id, line: e.line, column: e.column, message: e.message });
    }
  }

  async blockRequest(request: NonNullable<Block['request']>, where: Record<string, unknown>) {
    await this.prepareExpressions(request.url, request.headers, request.params, request.storedValues);
    const ctx = this.scope.templateContext((expr) => this.expressionValues.get(expr) ?? '');
    const outcome = await runBlockRequest(request, ctx, this.http);
    this.system.customAnswer = outcome.body;
    this.customAnswer = outcome.body;
    for (const { variable, value } of outcome.stored) this.setVariable(variable, value);
    this.note('request', {
      ...where,
      request: outcome.request,
      status: outcome.status,
      reply: outcome.body.slice(0, 10_000),
      stored: outcome.stored,
      errors: outcome.errors,
    });
  }

  private async sendBlockMessage(block: Block) {
    const own = block.buttons;
    const buttons = (Array.isArray(own) ? own : (own?.buttons ?? [])).concat(
      this.bot.arrowButtons.get(block.id) ?? [],
    );
    const hint = own && !Array.isArray(own) ? own.hint : null;
    await this.prepareExpressions(
      block.text,
      ...block.attachments.map((a) => a.url),
      ...buttons.map((b) => b.text),
      hint ?? '',
    );
    const text = this.render(block.text);
    const attachments = block.attachments
      .map((a) => ({ type: a.type, url: this.render(a.url, 'url') }))
      .filter((a) => a.url);
    if (!text.trim() && !attachments.length) return;
    this.outgoing.push({
      text,
      attachments,
      buttons: this.renderButtons(buttons, hint),
      blockId: block.id,
      messageFromOutside: this.system.messageFromOutside,
    });
  }

  private renderButtons(list: Button[], hint: string | null): Buttons | null {
    if (!list.length) return null;
    const rendered = list.map((b) => buttonSchema.parse({ ...b, text: this.render(b.text) || b.text }));
    return hint !== null ? { hint: this.render(hint), buttons: rendered } : rendered;
  }

  private async submit(block: Block) {
    const variables = this.scope.dealVariables();
    const submission = {
      id: await this.newId('Submission'),
      projectId: this.project.id,
      clientId: this.client.id,
      dealId: this.dealId,
      blockId: block.id,
      variables,
    };
    this.later((tx) => tx.submission.create({ data: submission }));
    this.submitted = true;
    this.note('submission', {
      blockId: block.id,
      submissionId: submission.id,
      variables,
      kept: block.kind === 'data_transfer',
    });
    // Save what was collected with the deal, close it, and start the next one empty.
    if (block.kind === 'close_deal') await this.closeDeal();
  }

  get hasSubmitted() {
    return this.submitted;
  }

  private async scheduleTimers(block: Block) {
    for (const arrow of this.bot.arrowsFrom.get(block.id) ?? []) {
      if (arrow.kind !== 'timer' || !arrow.timer) continue;
      const runAt = await this.timerRunAt(arrow.timer);
      if (!runAt) {
        this.note('error', {
          arrowId: arrow.id,
          message: `The timer's date "${'at' in arrow.timer ? arrow.timer.at : ''}" is not dd.mm.yyyy hh:mm.`,
        });
        continue;
      }
      if (arrow.cancelOtherTimers) await this.cancelTimers();
      if (runAt.getTime() <= this.deps.now().getTime()) {
        // 0-second timers (and dates already past) run now, in this event.
        this.note('timer_fired', { arrowId: arrow.id, immediate: true });
        await this.enterBlock(this.requireBlock(arrow.to), 'timer');
        continue;
      }
      const send = await this.addScheduledSend({
        clientId: this.client.id,
        kind: 'timer',
        arrowId: arrow.id,
        // The block the client is in once this block is entered: "left" is measured from it.
        blockId: movesClient(block) ? block.id : this.client.currentBlockId,
        payload: { cancelIfLeft: arrow.cancelIfLeft },
        runAt,
      });
      this.note('timer_scheduled', {
        arrowId: arrow.id,
        scheduledSendId: send.id,
        runAt: runAt.toISOString(),
      });
    }
  }

  private async timerRunAt(timer: Timer): Promise<Date | null> {
    const now = this.deps.now();
    if ('delay' in timer) {
      const unit = { seconds: 1, minutes: 60, hours: 3600, days: 86_400 }[timer.unit];
      return new Date(now.getTime() + timer.delay * unit * 1000);
    }
    await this.prepareExpressions(timer.at);
    return parseLocalDateTime(this.render(timer.at), this.project.timeZone);
  }

  /**
   * A timer or delayed message, its row written with the event and its job queued after the
   * commit. Returns its id.
   */
  async addScheduledSend(
    send: Omit<Prisma.ScheduledSendUncheckedCreateInput, 'id' | 'projectId' | 'runAt'> & {
      clientId: number;
      runAt: Date;
    },
  ): Promise<{ id: number }> {
    const row = { ...send, id: await this.newId('ScheduledSend'), projectId: this.project.id };
    this.later((tx) => tx.scheduledSend.create({ data: row }));
    this.scheduled.push({ id: row.id, clientId: send.clientId, runAt: send.runAt });
    if (send.kind === 'timer' && send.clientId === this.client.id) this.newTimers.push(row.id);
    return { id: row.id };
  }

  /** This event's own timers for its client, not yet written. */
  private readonly newTimers: number[] = [];
  /** Timers this event cancelled: their rows are still pending until its final write. */
  private readonly cancelledTimers = new Set<number>();

  /** Cancels the client's pending timers (the rows with the event, their jobs after the commit). */
  async cancelTimers(): Promise<void> {
    const stored = await this.db.scheduledSend.findMany({
      where: { projectId: this.project.id, clientId: this.client.id, kind: 'timer', status: 'pending' },
      select: { id: true, jobId: true },
    });
    const pending = [...stored, ...this.newTimers.splice(0).map((id) => ({ id, jobId: null }))].filter(
      (p) => !this.cancelledTimers.has(p.id),
    );
    if (!pending.length) return;
    const ids = pending.map((p) => p.id);
    for (const id of ids) this.cancelledTimers.add(id);
    const doneAt = this.deps.now();
    this.later((tx) =>
      tx.scheduledSend.updateMany({ where: { id: { in: ids } }, data: { status: 'cancelled', doneAt } }),
    );
    for (const p of pending) if (p.jobId) this.cancelledJobs.push(p.jobId);
    this.note('timer_cancelled', {
      scheduledSendIds: pending.map((p) => p.id),
      reason: 'cancelled by another timer',
    });
  }

  /**
   * Sets the variable changes so far aside for the deal they belong to; they are written with
   * the event's other writes at its end. The scope checked every limit as they were made.
   */
  flushVariables(): void {
    for (const { name, value } of this.scope.takeChanges()) {
      const { scope, name: bare } = splitScope(name);
      if (scope === 'client') {
        this.variableWrites.client.set(bare, value);
        continue;
      }
      const deal = this.variableWrites.deals.get(this.dealId) ?? new Map<string, string | null>();
      this.variableWrites.deals.set(this.dealId, deal.set(bare, value));
    }
  }
}
