import type { Attachment, Buttons } from '@/lib/schema';
import { storableJson } from '@/lib/storable-json';
import { MESSAGE_FROM } from '@/server/contacts/history-service';
import { VARIABLE_LIMITS } from '@/server/contacts/variable-limits';
import { type PreparedStatement, prefixed, type TransactionSql } from '@/server/db/raw-sql';
import { leaseSeconds } from './client-lease';
import type { OutboxRow } from './outbox-rows';
import type { RunState } from './run-state';
import { channelStateParams, LEASE_LOST, storeEvent, variableWriteParams } from './store/final-write';

export interface StoredOutgoing {
  id: bigint;
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
  blockId: number | null;
  delivered: boolean;
  error: string | null;
  /** Its channel holds it (queued, to be tried again later): not sent yet. */
  held?: boolean;
}

export interface StoredEvent {
  incomingIds: bigint[];
  outgoing: StoredOutgoing[];
  /** The event's side effects, held by this process (none for most events). */
  outbox: OutboxRow[];
}

interface MessageRow {
  direction: 'in' | 'out';
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
  blockId: number | null;
  messageFromOutside: number;
  senderMemberId: number | null;
  dedupeKey: string | null;
  delivered: boolean;
}

export class LeaseLostError extends Error {}

/** A write of an event's source (a tg update marked processed): stored exactly when the event is. */
export interface AlsoWrite {
  statement: PreparedStatement<unknown>;
  params: Record<string, unknown>;
}

/** The prefix of an AlsoWrite's parameters and CTE in the event's statement. */
const ALSO = 'also_';

/**
 * Everything an event stores, in one statement: the incoming message and the outgoing ones
 * (undelivered until their channel says otherwise, unless storing delivers them), the
 * variable changes, the client's block (and last block request's reply), the engine log and
 * the outbox rows of its side effects (sends, webhooks of its messages and submissions,
 * follow-up events). An outgoing message whose send key is already stored (a retried job) is
 * left out, so nothing is sent twice. It releases the client's lease (or keeps it for the next
 * event here), and stores nothing when the lease is no longer this event's. It is the event's
 * last statement: a transaction (when the run wrote something of its own) commits with it.
 */
export async function storeEventResults(
  /** Runs the statement and commits (the last of a transaction, or one statement on its own). */
  runAndCommit: TransactionSql['runAndCommit'],
  run: RunState,
  options: {
    lastMessageAt: Date | null;
    deliveredWhenStored: boolean;
    leaseToken: string;
    /** Keep the lease for the next event of this client in this process instead of releasing it. */
    keepLease: boolean;
    hasWebhook: boolean;
    /** The follow-up row this event carries out: marked done with it. */
    outboxId: bigint | null;
    /** A write of the event's source, stored in the same statement (see EventOptions). */
    alsoWrite?: AlsoWrite;
    /** The published version analytics count the event for, and whether as a test conversation; null: not counted (a changed draft's). */
    analytics: { version: number; test: boolean } | null;
  },
): Promise<StoredEvent> {
  // Field by field: an object literal that starts with a spread and adds properties is slow in V8.
  const messages: MessageRow[] = [];
  const incoming = run.incoming;
  if (incoming)
    messages.push({
      direction: 'in',
      text: incoming.text,
      attachments: incoming.attachments,
      buttons: null,
      blockId: incoming.blockId,
      messageFromOutside: incoming.messageFromOutside,
      senderMemberId: incoming.senderMemberId ?? null,
      dedupeKey: incoming.dedupeKey ?? null,
      delivered: true,
    });
  for (const m of run.outgoing)
    messages.push({
      direction: 'out',
      text: m.text,
      attachments: m.attachments,
      buttons: m.buttons,
      blockId: m.blockId,
      messageFromOutside: m.messageFromOutside,
      senderMemberId: m.senderMemberId ?? null,
      dedupeKey: m.dedupeKey ?? null,
      delivered: options.deliveredWhenStored,
    });
  const also = options.alsoWrite;
  const stored = await runAndCommit(also ? storeEvent.withWrite(also.statement, ALSO) : storeEvent, {
    projectId: run.project.id,
    clientId: run.client.id,
    at: new Date(),
    directions: messages.map((m) => m.direction),
    texts: messages.map((m) => m.text),
    attachments: messages.map((m) => storableJson(m.attachments)),
    buttons: messages.map((m) => (m.buttons ? storableJson(m.buttons) : null)),
    blockIds: messages.map((m) => m.blockId),
    froms: messages.map((m) => m.messageFromOutside),
    senderMemberIds: messages.map((m) => m.senderMemberId),
    delivered: messages.map((m) => m.delivered),
    dedupeKeys: messages.map((m) => m.dedupeKey),
    ...variableWriteParams(run.variables.writes),
    ...channelStateParams(run.channelState),
    currentBlockId: run.currentBlockId,
    lastMessageAt: options.lastMessageAt,
    fromClient: run.incoming?.messageFromOutside === MESSAGE_FROM.client,
    // What a variable could hold: the webhook carries it with every message of the client.
    customAnswer: run.customAnswer?.slice(0, VARIABLE_LIMITS.valueLength) ?? null,
    ...flowHitParams(run, options.analytics),
    logKinds: run.log.map((entry) => entry.kind),
    logData: run.log.map((entry) => storableJson(entry.data)),
    leaseToken: options.leaseToken,
    keepLease: options.keepLease,
    sends: !options.deliveredWhenStored,
    webhooks: options.hasWebhook,
    submissionIds: run.deals.submissionIds,
    followUps: run.deferred.map((f) => storableJson(f)),
    doneOutboxId: options.outboxId === null ? null : String(options.outboxId),
    // Last: in V8 an object literal that starts with a spread adds each later property the slow
    // way (about 0.7 µs each; with this statement's seventy, some 40 kB of garbage an event).
    ...(also ? prefixed(ALSO, also.params) : {}),
  }).catch((error: Error) => {
    if (!error.message.includes(LEASE_LOST)) throw error;
    throw new LeaseLostError(
      `Event for client ${run.client.id} not stored: it ran longer than ${leaseSeconds()} s and another event took the client.`,
    );
  });
  return {
    outbox: stored[0]?.outbox ?? [],
    ...matchStoredIds(
      messages,
      stored.flatMap((row) => (row.id === null ? [] : [{ id: row.id, dedupeKey: row.dedupeKey }])),
    ),
  };
}

/**
 * What analytics count of the event (docs/analytics.md), read off its log: the blocks it
 * entered and the arrows it followed to them, the CRM stages its deal moved into, the blocks
 * that submitted. An event that did none of these writes no hit.
 */
function flowHitParams(run: RunState, counted: { version: number; test: boolean } | null) {
  const of = (kind: string, key: string) =>
    run.log.flatMap((e) =>
      e.kind === kind && typeof e.data[key] === 'number' ? [e.data[key] as number] : [],
    );
  const blocks = of('block', 'blockId');
  const stages = of('deal_moved', 'stateId');
  const submitted = of('submission', 'blockId');
  const hit = counted !== null && blocks.length + stages.length + submitted.length > 0;
  return {
    enteredBlock: blocks.length > 0,
    hitVersion: hit ? counted.version : null,
    hitTest: counted?.test ?? false,
    hitBlocks: blocks,
    hitArrows: of('block', 'arrowId'),
    hitStages: stages,
    hitSubmitted: submitted,
  };
}

/**
 * Ids are drawn in the order of the VALUES list, so in id order the stored rows follow the
 * messages, less those whose send key was already stored.
 */
function matchStoredIds(
  messages: MessageRow[],
  stored: { id: string; dedupeKey: string | null }[],
): Omit<StoredEvent, 'outbox'> {
  const ids = stored
    .map((row) => ({ id: BigInt(row.id), key: row.dedupeKey }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const result: Omit<StoredEvent, 'outbox'> = { incomingIds: [], outgoing: [] };
  let next = 0;
  for (const m of messages) {
    if (m.dedupeKey !== null && ids[next]?.key !== m.dedupeKey) continue;
    const id = ids[next++].id;
    if (m.direction === 'in') result.incomingIds.push(id);
    else
      result.outgoing.push({
        id,
        text: m.text,
        attachments: m.attachments,
        buttons: m.buttons,
        blockId: m.blockId,
        delivered: m.delivered,
        error: null,
      });
  }
  return result;
}
