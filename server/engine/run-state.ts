import { isBotPaused, NOT_PAUSED, type PauseState } from '@/lib/inbox/pause';
import type { Block } from '@/lib/schema';
import type { PrismaClient } from '@/server/db/client-type';
import { createFormulaHost } from '@/server/engine/functions/formula-host';
import { DomainError } from '@/server/errors';
import { askForOperator, endPause } from '@/server/inbox/handoff';
import { logFor } from '@/server/log';
import { withSecrets } from '@/server/secrets/secret-http';
import { loadSecrets } from '@/server/secrets/secret-service';
import type { HttpClient } from './block-request';
import type { CompiledBot } from './compiled-bot';
import type { EngineDeps } from './engine-deps';
import { EngineScope } from './engine-scope';
import { type ChainLimit, EventChain } from './event-chain';
import type { EngineEvent, LogEntry, LogKind } from './events';
import type {
  LaterWrite,
  PendingIncoming,
  PendingMessage,
  RunClient,
  RunContext,
  RunProject,
} from './run-context';
import { RunDeals } from './run-deals';
import { RunLists } from './run-lists';
import { RunTemplates } from './run-templates';
import { RunTimers } from './run-timers';
import { RunVariables } from './run-variables';
import { type SystemState, systemVariable } from './system-variables';
import { OTHER_CLIENTS_LEFT_ALONE, type TestRunHooks } from './test-run';

const log = logFor('engine');

/** Blocks entered in one event at most: a loop of continue arrows or 0-second timers stops here. */
export const MAX_BLOCKS_PER_EVENT = 50;

/** Thrown when an event entered too many blocks: the event stops there, its writes kept. */
export class LoopGuard extends Error {}

/**
 * The state of one event for one client, under the client's lease with no transaction open:
 * what it read, and what it collected to write (in the final transaction) and to send. Steps and
 * in-flow functions see it as their `RunContext` (run-context.ts); its parts keep the variables
 * (run-variables.ts), templates (run-templates.ts), timers (run-timers.ts), the deal
 * (run-deals.ts) and lists (run-lists.ts). The runner (event-run.ts) and the final write
 * (event-writes.ts) use the rest.
 */
export class RunState implements RunContext {
  #incoming: PendingIncoming | null = null;
  readonly #outgoing: PendingMessage[] = [];
  readonly #log: LogEntry[] = [];
  /** Writes beyond messages, variables and the log, for the final transaction. */
  readonly #writes: LaterWrite[] = [];
  /** Events for other clients, handled after the commit (each under its own client's lease). */
  readonly #deferred: { clientId: number; event: EngineEvent }[] = [];
  readonly #system: SystemState;
  readonly http: HttpClient;
  readonly now: () => Date;
  readonly testRun: TestRunHooks | undefined;
  readonly variables: RunVariables;
  readonly templates: RunTemplates;
  readonly timers = new RunTimers(this);
  readonly deals: RunDeals;
  readonly lists = new RunLists(this);
  /** The project's secrets, read once an event's request first refers to one. */
  #secrets: Promise<ReadonlyMap<string, string>> | undefined;
  private blocksEntered = 0;
  readonly startedAt = performance.now();
  /** Blocks a formula's message() asked for: entered once the current block is done. */
  readonly #queuedBlocks: Block[] = [];
  /** The last block request's reply in this event, kept on the client for the webhook; null: none ran. */
  #customAnswer: string | null = null;
  /** The channel's state of the client the event brought (null removes a key). */
  #channelState: Readonly<Record<string, string | null>> = {};
  /** The handoff's pause (docs/inbox.md): while it lasts the event enters no block. */
  #pause: PauseState;
  #currentBlockId: number | null;

  constructor(
    deps: EngineDeps,
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
    this.now = deps.now;
    this.testRun = deps.testRun;
    this.#currentBlockId = client.currentBlockId;
    this.#pause = isBotPaused(client, deps.now())
      ? { botPausedAt: client.botPausedAt, botPausedUntil: client.botPausedUntil }
      : NOT_PAUSED;
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
    const scope = new EngineScope(variables, (name) => systemVariable(this.#system, name));
    this.variables = new RunVariables(this, scope);
    this.templates = new RunTemplates(this, scope, createFormulaHost(this), deps.random);
    this.deals = new RunDeals(this, this.variables, this.#system, dealId);
  }

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
  get writes(): readonly LaterWrite[] {
    return this.#writes;
  }
  get deferred(): readonly { clientId: number; event: EngineEvent }[] {
    return this.#deferred;
  }
  get messageFromOutside(): number {
    return this.#system.messageFromOutside;
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
  /** Whether an operator has the bot paused for this client (from the start or by ask_operator()). */
  get paused(): boolean {
    return this.#pause.botPausedAt !== null;
  }
  /** The pause as the event leaves it (not paused: both null). */
  get pause(): PauseState {
    return this.#pause;
  }

  /**
   * ask_operator(): the conversation waits for an operator, and the bot is paused from here on
   * (until `until`, null: until resumed by hand). A pause already on is kept as it is.
   */
  askOperator(until: Date | null): void {
    const at = this.now();
    const pause = this.paused ? null : { at, until };
    if (pause) this.#pause = { botPausedAt: at, botPausedUntil: until };
    const clientId = this.client.id;
    this.later((tx) => askForOperator(tx, clientId, at, pause));
  }

  /** The bot takes the conversation back (a callback it caught while paused): the pause ends with the event. */
  resumeBot(): void {
    this.#pause = NOT_PAUSED;
    const clientId = this.client.id;
    this.later((tx) => endPause(tx, clientId));
  }

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

  send(message: PendingMessage): void {
    this.#outgoing.push(message);
  }

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
    await this.timers.leftBlock(left, blockId);
  }

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

  /**
   * A limit stopped something: an entry in the run's log (the simulator shows it) the first time
   * in this event, and a server log line the first time in the chain.
   */
  limitReached(limit: ChainLimit, data: { message: string } & Record<string, unknown>): void {
    if (!this.log.some((e) => e.kind === 'loop_guard' && e.data.limit === limit))
      this.note('loop_guard', { limit, ...data });
    if (this.chain.firstStop(limit))
      log.warn(
        { projectId: this.project.id, clientId: this.client.id, limit },
        `project ${this.project.id}, client ${this.client.id}: ${data.message}`,
      );
  }

  defer(clientId: number, event: EngineEvent): void {
    if (this.testRun) {
      this.note('error', { message: OTHER_CLIENTS_LEFT_ALONE, clientId, event: event.type });
      return;
    }
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

  /** The variable changes so far, set aside for the open deal: written at the event's end. */
  flushVariables(): void {
    this.variables.flush(this.deals.id);
  }
}
