import { randomUUID } from 'node:crypto';
import { storableJson } from '@/lib/storable-json';
import { type ClientTarget, clientWhere } from '@/server/contacts/client-service';
import {
  claimHeld,
  finish,
  finishNotProcessed,
  type HeldRow,
  insertHeld,
  prune,
  recordFailure,
  takeExpired,
} from '@/server/db/channel-update-sql';
import type { Db } from '@/server/db/client-type';
import { plainSql, prefixed } from '@/server/db/raw-sql';
import { type FirstPlace, leaseSeconds, releaseLease, takeFirstPlace } from '@/server/engine/client-lease';
import { getEngineDeps } from '@/server/engine/engine';
import type { EngineDeps } from '@/server/engine/engine-deps';
import type { AlsoWrite } from '@/server/engine/event-writes';
import type { ClaimedAhead } from '@/server/engine/handle-event';
import { storeHeldAndClaim } from '@/server/engine/store/claim';
import { defineJob, enqueue } from '@/server/jobs/jobs';
import { logFor, outsideLogContext } from '@/server/log';
import type { ChannelRow } from '../channel-module';

const log = logFor('channels');

/**
 * Every channel's inbound updates (a webhook's or a poll's), one pipeline: an accepted update
 * is stored first, deduplicated by the messenger's id of it and held by the process that stored
 * it, which then runs it through the engine at once (the webhook's answer does not wait for it).
 * The sweeper takes the rows whose holder died before it finished (the hold expired) and
 * processes them the same way, so an accepted update is never lost; the hold keeps two
 * processes from processing one. Updates of one chat are processed one at a time, in order.
 * What an update means is its channel's (`InboundProcessor`, the module's `inbound`).
 */

/** How long the accepting process holds an update before the sweeper may take it. */
export const ACCEPT_HOLD_SECONDS = 30;
/** The hold while the engine runs it: an event is bounded by its client's lease. */
const processHoldSeconds = () => leaseSeconds() + 30;
/** An update failing this often is given up (marked processed with its error). */
export const MAX_ATTEMPTS = 3;
/**
 * Processed updates are kept this long, then pruned: messengers resend an unanswered update
 * for at most a day or so, so a week covers every repeat and leaves recent errors to look at.
 */
export const KEEP_PROCESSED_DAYS = 7;
/** The sweeper's period. */
const SWEEP_SECONDS = 5;
const SWEEP_BATCH = 200;

/** How stale the channel's "last update received" may be. */
const LAST_UPDATE_EVERY_SECONDS = 5;

type ChannelKind = ChannelRow['kind'];

/** The channel an update came to, as processing it needs it. */
export interface UpdateChannel {
  id: number;
  kind: ChannelKind;
  projectId: number;
  groupId: string;
  credentials: unknown;
  /** The channel's settings (a kind's own: telephony's voice, say), read with the update. */
  settings: unknown;
}

/** An update as its channel accepted it. */
export interface AcceptedUpdate<T> {
  /** The messenger's id of it: a repeat is dropped. */
  externalId: string;
  /** Its place in its chat (processed in this order). */
  order: bigint | number;
  /** The chat it belongs to, '' for none. */
  chat: string;
  /** What the messenger sent, stored for the sweeper. */
  payload: object;
  /** It parsed, so this process does not parse it again. */
  parsed: T;
}

/** How a processor ends an update's processing. */
export interface UpdateEnd {
  /** Marks the update processed: joined into the event's statement, or run on its own. */
  done: AlsoWrite;
  /**
   * Called once the update's event is stored, before its messages are sent (handleEvent's
   * `afterStore`): the chat's next update may start, and the messages wait for the previous
   * update's processing to end. Without it the next update waits for this one to end.
   */
  stored(): Promise<void>;
  /**
   * An update that cannot be processed (malformed): processed, with why; `onChannel` is the
   * channel's last error (the reason, unless the channel names the update too).
   */
  notProcessed(reason: string, onChannel?: string): Promise<void>;
}

/** What a channel kind does with its stored updates. */
export interface InboundProcessor<T> {
  kind: ChannelKind;
  /** An update as the sweeper reads it back. */
  parse(payload: unknown, channel: UpdateChannel): T;
  /**
   * The client of an update whose processing is one engine event and nothing before it (a
   * plain message): such an update, arriving alone at a webhook, is stored and its client
   * claimed for the event in one statement. Undefined for any other update.
   */
  eventTarget?(update: T, channel: { id: number; groupId: string }): ClientTarget | undefined;
  /**
   * Runs one update through the engine; it must end with `end.done` (written with its event, so
   * an update is processed exactly when its event is stored) or `end.notProcessed`. A throw is a
   * failed attempt, retried by the sweeper. `claimedAhead`: the update's client as claimed with
   * it (its `eventTarget`), to be passed to its event (handleEvent's option).
   */
  run(
    deps: EngineDeps,
    channel: UpdateChannel,
    update: T,
    end: UpdateEnd,
    claimedAhead?: ClaimedAhead,
  ): Promise<void>;
}

/** What a webhook checked an update's request against (its cached copy of the channel). */
export interface WebhookCheck {
  secret: string;
  groupId: string;
  /** The channel's project: with it, an update with an `eventTarget` has its client claimed as it is stored. */
  projectId?: number;
}

/**
 * Stores the updates not seen before, held by this process, and starts processing them
 * without waiting (a repeat of a stored update is dropped: its holder, or the sweeper, has it).
 * `webhook`: the channel's secret and bot id as the webhook checked the request against them
 * (its cached copy); nothing is stored, and false is answered, when the channel no longer has
 * them. False too when the channel is gone.
 */
export async function storeUpdates<T>(
  deps: EngineDeps,
  processor: InboundProcessor<T>,
  channelId: number,
  updates: AcceptedUpdate<T>[],
  webhook?: WebhookCheck,
): Promise<boolean> {
  if (!updates.length) return true;
  const token = randomUUID();
  const params = {
    channelId,
    kind: processor.kind,
    updates: storableJson(
      updates.map((u) => ({
        externalId: u.externalId,
        updateId: String(u.order),
        chat: u.chat,
        payload: u.payload,
      })),
    ),
    token,
    acceptSeconds: ACCEPT_HOLD_SECONDS,
    processSeconds: processHoldSeconds(),
    touchSeconds: LAST_UPDATE_EVERY_SECONDS,
    secret: webhook?.secret ?? null,
    groupId: webhook?.groupId ?? null,
  };
  void ensureSweeper();
  const ahead =
    updates.length === 1 && webhook ? claimableAhead(processor, channelId, updates[0], webhook) : undefined;
  if (ahead) return storeAndClaim(deps, processor, updates[0], params, ahead);
  const rows = await plainSql(deps.db).run(insertHeld, params);
  if (!rows.length) return false;
  const [{ projectId, groupId, credentials, settings }] = rows;
  const channel: UpdateChannel = {
    id: channelId,
    kind: processor.kind,
    projectId,
    groupId,
    credentials,
    settings,
  };
  const parsed = new Map(updates.map((u) => [u.externalId, u.parsed]));
  processInOrder(
    deps,
    rows.flatMap(({ id, externalId, chat, updateId, behind }) => {
      if (id === null || externalId === null || chat === null || updateId === null) return [];
      const row = { id, channelId, chat, updateId };
      // Taken as it was stored: no claim, and the update as parsed already.
      const taken = behind ? undefined : parsed.get(externalId);
      return [{ row, run: taken === undefined ? undefined : { processor, channel, update: taken } }];
    }),
    token,
  );
  return true;
}

/** An update's client to claim as it is stored, with its place in the client's queue here. */
interface Ahead {
  chatKey: string;
  projectId: number;
  target: ClientTarget;
  first: FirstPlace;
}

/**
 * The client an update is stored and claimed with: a webhook's one update of a chat, whose
 * processing is one event (the processor's `eventTarget`), when the chat's last update here
 * has its event stored (it may still be sending) and no event of the client is queued here. The
 * client's first place is taken here, before the statement, so no event of the client can come
 * in between; the chat's, by storeAndClaim, before it awaits.
 */
function claimableAhead<T>(
  processor: InboundProcessor<T>,
  channelId: number,
  update: AcceptedUpdate<T>,
  { projectId, groupId }: WebhookCheck,
): Ahead | undefined {
  const key = chatKey(channelId, update.chat);
  // A chat whose last update's event is stored only sends: its client is free to claim.
  if (projectId === undefined || update.chat === '' || chats.get(key)?.isStored === false) return undefined;
  const target = processor.eventTarget?.(update.parsed, { id: channelId, groupId });
  const first = target && takeFirstPlace(projectId, target);
  return first ? { chatKey: key, projectId, target, first } : undefined;
}

/**
 * Stores one update and claims its client for its event in one statement
 * (server/engine/store/claim.ts, storeHeldAndClaim), then processes it as storeUpdates would: taken,
 * with the claim; behind another of its chat, claimed in its turn; a repeat, not at all.
 */
async function storeAndClaim<T>(
  deps: EngineDeps,
  processor: InboundProcessor<T>,
  update: AcceptedUpdate<T>,
  params: { channelId: number; token: string } & Record<string, unknown>,
  { chatKey: key, projectId, target, first }: Ahead,
): Promise<boolean> {
  const stored = plainSql(deps.db).run(storeHeldAndClaim, {
    ...params,
    ...prefixed('lease_', {
      token: first.token,
      seconds: leaseSeconds(),
      ...clientWhere(projectId, target).params,
    }),
  });
  // In the chat's order before any await, as processInOrder queues.
  inChat(
    key,
    async (turn) => {
      // A failed statement is the caller's error; the place is given back.
      const [row] = await stored.catch(() => []);
      const held = row?.held;
      if (!row || !held?.id || held.behind !== false) {
        first.place.leave();
        // Behind an earlier update of its chat: claimed in its turn, as processInOrder does.
        if (held?.id) await processUpdate(deps, held.id, params.token, turn);
        return;
      }
      const channel: UpdateChannel = {
        id: held.channelId,
        kind: processor.kind,
        projectId,
        groupId: held.groupId,
        credentials: held.credentials,
        settings: held.settings,
      };
      await runUpdate(deps, held.id, params.token, { processor, channel, update: update.parsed }, turn, {
        first,
        target,
        ...('id' in row ? { row } : {}),
      });
    },
    `an update of channel ${params.channelId}`,
  );
  const [row] = await stored;
  return row !== undefined;
}

interface TakenUpdate<T> {
  processor: InboundProcessor<T>;
  channel: UpdateChannel;
  update: T;
}

/**
 * This process's last update of each chat. An update's processing starts once the previous
 * one's event is stored (or its processing ended), and its event's messages are sent once the
 * previous one's processing ended: events and messages keep the chat's order, and the next
 * update's event runs while the previous one's messages are sent.
 */
interface ChatTail {
  /** The update's event is stored, or its processing ended. */
  stored: Promise<void>;
  isStored: boolean;
  /** Its processing, and every earlier update's of the chat, ended. */
  done: Promise<void>;
}
const chats = new Map<string, ChatTail>();

/** An update's place in its chat's order (see ChatTail), as the processor's `end.stored` gives it. */
interface ChatTurn {
  /** Marks the update's event stored, then waits for the previous update's processing to end. */
  eventStored(): Promise<void>;
}

/** The turn of an update processed outside any chat's order (a test's direct call). */
const ALONE: ChatTurn = { eventStored: async () => {} };

/**
 * Processes held rows, each chat's in order behind the ones this process already runs. Queued
 * before any await, so arrival order is kept; failures are recorded on the row. A row with
 * `run` was taken for processing as it was stored; the others are claimed first.
 */
function processInOrder(
  deps: EngineDeps,
  held: { row: HeldRow; run?: TakenUpdate<unknown> }[],
  token: string,
): Promise<void>[] {
  const sorted = [...held].sort(
    (a, b) => a.row.channelId - b.row.channelId || Number(a.row.updateId - b.row.updateId),
  );
  return sorted.map(({ row, run: taken }) =>
    inChat(
      chatKey(row.channelId, row.chat || `update-${row.id}`),
      (turn) =>
        taken ? runUpdate(deps, row.id, token, taken, turn) : processUpdate(deps, row.id, token, turn),
      `update ${row.id}`,
    ),
  );
}

const chatKey = (channelId: number, chat: string) => `${channelId}:${chat}`;

/**
 * Queues `process` as its chat's last update here (see ChatTail); its failure is logged (and
 * recorded by runUpdate). Resolves when its processing ended.
 */
function inChat(key: string, process: (turn: ChatTurn) => Promise<void>, what: string): Promise<void> {
  const previous = chats.get(key);
  let resolveStored!: () => void;
  const tail: ChatTail = {
    stored: new Promise((resolve) => {
      resolveStored = resolve;
    }),
    isStored: false,
    done: Promise.resolve(),
  };
  const markStored = () => {
    tail.isStored = true;
    resolveStored();
  };
  const turn: ChatTurn = {
    async eventStored() {
      markStored();
      await previous?.done;
    },
  };
  const run = (previous?.stored ?? Promise.resolve())
    .then(() => process(turn))
    .catch((error: Error) => log.error(`${what} failed: ${error.message}`))
    .finally(markStored);
  tail.done = Promise.all([run, previous?.done]).then(() => {
    if (chats.get(key) === tail) chats.delete(key);
  });
  chats.set(key, tail);
  return run;
}

/** The processor of a kind, read when the sweeper needs it (the modules import this file). */
async function processorOf(kind: string): Promise<InboundProcessor<unknown> | undefined> {
  const { moduleOf } = await import('../modules');
  return moduleOf(kind)?.inbound;
}

/**
 * Runs one update held under `token` through the engine. Does nothing when the update was
 * processed or taken by another process meanwhile.
 */
export async function processUpdate(
  deps: EngineDeps,
  updateRowId: bigint,
  token: string,
  turn: ChatTurn = ALONE,
): Promise<void> {
  const [claimed] = await plainSql(deps.db).run(claimHeld, {
    id: String(updateRowId),
    token,
    seconds: processHoldSeconds(),
  });
  if (!claimed || claimed.behind) return;
  const channel: UpdateChannel = {
    id: claimed.channelId,
    kind: claimed.kind as ChannelKind,
    projectId: claimed.projectId,
    groupId: claimed.groupId,
    credentials: claimed.credentials,
    settings: claimed.settings,
  };
  const processor = await processorOf(channel.kind);
  if (!processor) {
    await plainSql(deps.db).run(finishNotProcessed, {
      id: String(updateRowId),
      token,
      error: `the ${channel.kind} channel takes no updates`,
    });
    return;
  }
  await runUpdate(
    deps,
    updateRowId,
    token,
    { processor, channel, update: processor.parse(claimed.payload, channel) },
    turn,
  );
}

/**
 * Runs an update this process holds for processing. A client claimed ahead and left unused by
 * the processor (it failed before its event) is released, and its place here left.
 */
async function runUpdate<T>(
  deps: EngineDeps,
  updateRowId: bigint,
  token: string,
  { processor, channel, update }: TakenUpdate<T>,
  turn: ChatTurn,
  claimedAhead?: ClaimedAhead,
): Promise<void> {
  const sql = plainSql(deps.db);
  const params = { id: String(updateRowId), token };
  try {
    await processor.run(
      deps,
      channel,
      update,
      {
        done: { statement: finish, params },
        stored: turn.eventStored,
        async notProcessed(reason, onChannel = reason) {
          // On the channel first: an update marked processed has its reason shown.
          await recordNotProcessed(deps.db, channel.id, onChannel);
          await sql.run(finishNotProcessed, { error: reason, ...params });
        },
      },
      claimedAhead,
    );
  } catch (error) {
    await sql.run(recordFailure, { error: (error as Error).message, maxAttempts: MAX_ATTEMPTS, ...params });
    throw error;
  } finally {
    if (claimedAhead && !claimedAhead.used) {
      claimedAhead.first.place.leave();
      if (claimedAhead.row) await releaseLease(sql, claimedAhead.row.id, claimedAhead.first.token);
    }
  }
}

/**
 * An update the channel could not process (malformed, or not an update at all): the reason is
 * the channel's last error on the Channels tab, and logged.
 */
export async function recordNotProcessed(db: Db, channelId: number, reason: string): Promise<void> {
  const lastError = `An update was not processed: ${reason}`;
  log.warn({ channelId }, `channel ${channelId}: ${lastError}`);
  await db.channel.updateMany({ where: { id: channelId }, data: { lastError } });
}

/**
 * One pass of the sweeper: processes the updates whose holder died before finishing (or that
 * waited behind an earlier one of their chat), in order, and prunes processed updates older
 * than KEEP_PROCESSED_DAYS. Returns how many updates it took.
 */
export async function sweepChannelUpdates(deps: EngineDeps): Promise<number> {
  const sql = plainSql(deps.db);
  await sql.run(prune, { keepDays: KEEP_PROCESSED_DAYS });
  const token = randomUUID();
  const taken = await sql.run(takeExpired, { token, seconds: ACCEPT_HOLD_SECONDS, batch: SWEEP_BATCH });
  await Promise.all(
    processInOrder(
      deps,
      taken.map((row) => ({ row })),
      token,
    ),
  );
  return taken.length;
}

export const channelSweepJob = defineJob<Record<string, never>>({
  name: 'channels.sweep',
  policy: 'stately',
  async handle() {
    let taken = 0;
    try {
      taken = await sweepChannelUpdates(await getEngineDeps());
    } finally {
      // A full batch may have left more behind: the next pass at once.
      await startSweeper(taken >= SWEEP_BATCH ? 0 : SWEEP_SECONDS);
    }
  },
});

// Each pass queues the next: the chain must not carry the id of the request that began it.
const startSweeper = (afterSeconds: number) =>
  outsideLogContext(() =>
    enqueue(
      channelSweepJob,
      {},
      { singletonKey: 'channels-sweep', ...(afterSeconds ? { startAfter: afterSeconds } : {}) },
    ),
  );

let sweeperStarted: Promise<unknown> | undefined;

/**
 * The sweeper is a chain of jobs (each pass queues the next; `stately` keeps one queued): the
 * first update a process stores makes sure it exists, so it outlives any one process.
 */
function ensureSweeper(): Promise<unknown> {
  sweeperStarted ??= startSweeper(SWEEP_SECONDS).catch((error: Error) => {
    sweeperStarted = undefined;
    log.error(`the update sweeper could not be queued: ${error.message}`);
  });
  return sweeperStarted;
}
