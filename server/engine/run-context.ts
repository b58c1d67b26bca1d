import type { Attachment, Block, Buttons } from '@/lib/schema';
import type { LockedClient } from '@/server/contacts/client-service';
import type { PrismaClient } from '@/server/db/client-type';
import type { Plan, Prisma } from '@/server/db/generated/client';
import type { HttpClient } from './block-request';
import type { CompiledBot } from './compiled-bot';
import type { EngineEvent, LogKind } from './events';
import type { RunDeals } from './run-deals';
import type { RunLists } from './run-lists';
import type { RunTemplates } from './run-templates';
import type { RunTimers } from './run-timers';
import type { RunVariables } from './run-variables';
import type { TestRunHooks } from './test-run';

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

/** A write of the event, carried out in its final transaction, in the order it was made. */
export type LaterWrite = (tx: Prisma.TransactionClient) => Promise<unknown>;

/** A block a step says the event enters next, and how it gets there (the log's `via`). */
export interface NextBlock {
  block: Block;
  via: string;
  arrowId: number;
}

/**
 * What a step (`steps/`) or an in-flow function (`functions/`) sees of its event: what the event
 * runs for, read-only, and a few typed ways to change it (variables, the log, a message to send,
 * timers, the deal, lists, another client's event), each collected by the run for its final
 * write. A step returns what happens next (a message, blocks to enter); the runner
 * (`event-run.ts`) carries it out. Nothing here writes to the database or holds a transaction.
 */
export interface RunContext {
  /** Reads outside any transaction: what the event changes is written at its end. */
  readonly db: PrismaClient;
  readonly project: RunProject;
  readonly client: Readonly<RunClient>;
  readonly bot: CompiledBot;
  /** Every outgoing request of the event, project secrets put in as it is sent (docs/secrets.md). */
  readonly http: HttpClient;
  readonly now: () => Date;
  /** When the event began running (performance.now()): AI calls fit in what is left of its lease. */
  readonly startedAt: number;
  /** Set when a conversation test runs the event: AI and messenger calls answer from its stubs. */
  readonly testRun?: TestRunHooks;
  /** The client's block as the event leaves it so far. */
  readonly currentBlockId: number | null;
  /** Where what the event sends comes from (bot-semantics §3's message_from_outside). */
  readonly messageFromOutside: number;
  /** The event's incoming message and what it sent so far (an AI call's conversation). */
  readonly incoming: Readonly<PendingIncoming> | null;
  readonly outgoing: readonly PendingMessage[];

  readonly variables: Pick<
    RunVariables,
    'get' | 'set' | 'trySet' | 'record' | 'dealValues' | 'ofOtherClient' | 'setOfOtherClient'
  >;
  /** `#{...}` substitution and the formulas' options. */
  readonly templates: RunTemplates;
  readonly timers: Pick<RunTimers, 'schedule' | 'cancelAll' | 'scheduleSend'>;
  readonly deals: Pick<RunDeals, 'id' | 'moveTo' | 'close' | 'submit'>;
  readonly lists: RunLists;

  /**
   * A log entry. `sentBefore` (the messages the event had sent by then) places it in the chat:
   * the simulator shows its warnings there.
   */
  note(kind: LogKind, data: Record<string, unknown>): void;
  /** An outgoing message, stored and sent with the event. */
  send(message: PendingMessage): void;
  /** A block request's reply: `#{custom_answer}` now, and the client's for the webhook. */
  setCustomAnswer(body: string): void;
  /** A block for `message()` with a block id: entered once the current block is done. */
  queueBlock(block: Block): void;
  requireBlock(blockId: number): Block;
  /** An event for another client, handled after the commit, within this chain's budget. */
  defer(clientId: number, event: EngineEvent): void;
  /** The handoff: waiting for an operator, the bot paused until `until` (null: resumed by hand). */
  askOperator(until: Date | null): void;
}

/** What a part of the run (its timers, deal, lists, variables) needs of it. */
export type RunHost = Pick<RunContext, 'db' | 'project' | 'client' | 'now' | 'note' | 'testRun'> & {
  /** A write for the event's final transaction, in the order it was made. */
  later(write: LaterWrite): void;
};
