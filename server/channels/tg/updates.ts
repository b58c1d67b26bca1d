import { randomUUID } from 'node:crypto';
import type { Attachment } from '@/lib/schema';
import {
  BUSINESS_CONNECTION_KEY,
  parseUpdate,
  TG_CLIENT_TYPE,
  type TgBusinessConnectionEvent,
  type TgInbound,
  type TgInboundAttachment,
  type TgMembershipEvent,
  type TgMessageEvent,
} from '@/lib/tg/inbound';
import type { Db } from '@/server/db/client-type';
import { plainSql } from '@/server/db/raw-sql';
import {
  answersCallbacksItself,
  claimHeld,
  finish,
  finishNotProcessed,
  type HeldRow,
  insertHeld,
  prune,
  recordFailure,
  takeExpired,
} from '@/server/db/tg-update-sql';
import { leaseSeconds } from '@/server/engine/client-lease';
import { getEngineDeps } from '@/server/engine/engine';
import type { EngineDeps } from '@/server/engine/engine-deps';
import type { LogEntry } from '@/server/engine/events';
import { handleEvent } from '@/server/engine/handle-event';
import { defineJob, enqueue } from '@/server/jobs/jobs';
import { channelBot } from './channel-service';
import { tgFileUrl } from './files';

/**
 * Accepted updates (webhook or getUpdates) are stored first, deduplicated by update_id and
 * held by the process that stored them, which then runs them through the engine at once (the
 * webhook's answer does not wait for it). The sweeper takes the rows whose holder died before
 * it finished (the hold expired) and processes them the same way, so an accepted update is
 * never lost; the hold keeps two processes from processing one. Updates of one chat are
 * processed one at a time, in update_id order.
 */

/** How long the accepting process holds an update before the sweeper may take it. */
export const ACCEPT_HOLD_SECONDS = 30;
/** The hold while the engine runs it: an event is bounded by its client's lease. */
const processHoldSeconds = () => leaseSeconds() + 30;
/** An update failing this often is given up (marked processed with its error). */
export const MAX_ATTEMPTS = 3;
/**
 * Processed updates are kept this long, then pruned: the messenger resends an unanswered
 * update for at most a day, so a week covers every repeat and leaves recent errors to look at.
 */
export const KEEP_PROCESSED_DAYS = 7;
/** The sweeper's period. */
const SWEEP_SECONDS = 5;
const SWEEP_BATCH = 200;

/** How stale the channel's "last update received" may be. */
const LAST_UPDATE_EVERY_SECONDS = 5;

export interface AcceptedUpdate {
  updateId: number;
  payload: object;
  inbound: TgInbound;
}

/** The chat an update belongs to, for ordering; '' for updates of no chat. */
function chatOf(inbound: TgInbound): string {
  if (inbound.kind === 'message') return String(inbound.chatId);
  if (inbound.kind === 'business_connection') return String(inbound.userChatId);
  if (inbound.kind === 'membership') return String(inbound.chatId);
  return '';
}

/** The bot an update came to, as processing it needs it. */
export interface UpdateChannel {
  id: number;
  projectId: number;
  groupId: string;
  credentials: unknown;
}

/**
 * Stores the updates not seen before, held by this process, and starts processing them
 * without waiting (a repeat of a stored update is dropped: its holder, or the sweeper, has it).
 * `webhook`: the channel's secret and username as the webhook checked the request against
 * them (its cached copy); nothing is stored, and false is answered, when the channel no longer
 * has them. False too when the channel is gone.
 */
export async function storeUpdates(
  deps: EngineDeps,
  channelId: number,
  updates: AcceptedUpdate[],
  webhook?: { secret: string; groupId: string },
): Promise<boolean> {
  if (!updates.length) return true;
  const token = randomUUID();
  const rows = await plainSql(deps.db).run(insertHeld, {
    channelId,
    updates: JSON.stringify(
      updates.map((u) => ({ updateId: String(u.updateId), chat: chatOf(u.inbound), payload: u.payload })),
    ),
    token,
    acceptSeconds: ACCEPT_HOLD_SECONDS,
    processSeconds: processHoldSeconds(),
    touchSeconds: LAST_UPDATE_EVERY_SECONDS,
    secret: webhook?.secret ?? null,
    groupId: webhook?.groupId ?? null,
  });
  if (!rows.length) return false;
  const [{ channelId: id, projectId, groupId, credentials }] = rows;
  const channel: UpdateChannel = { id, projectId, groupId, credentials };
  const inbound = new Map(updates.map((u) => [BigInt(u.updateId), u.inbound]));
  processInOrder(
    deps,
    rows.flatMap(({ id, chat, updateId, behind }) => {
      if (id === null || chat === null || updateId === null) return [];
      const row = { id, channelId, chat, updateId };
      // Taken as it was stored: no claim, and the update as parsed already.
      const taken = behind ? undefined : inbound.get(updateId);
      return [{ row, run: taken ? { channel, inbound: taken } : undefined }];
    }),
    token,
  );
  void ensureSweeper();
  return true;
}

/** This process's updates per chat: each starts when the one before it has finished. */
const chats = new Map<string, Promise<void>>();

/**
 * Processes held rows, each chat's in update_id order behind the ones this process already
 * runs. Queued before any await, so arrival order is kept; failures are recorded on the row.
 * A row with `run` was taken for processing as it was stored; the others are claimed first.
 */
function processInOrder(
  deps: EngineDeps,
  held: { row: HeldRow; run?: { channel: UpdateChannel; inbound: TgInbound } }[],
  token: string,
): Promise<void>[] {
  const sorted = [...held].sort(
    (a, b) => a.row.channelId - b.row.channelId || Number(a.row.updateId - b.row.updateId),
  );
  return sorted.map(({ row, run: taken }) => {
    const key = `${row.channelId}:${row.chat || `update-${row.id}`}`;
    const run = (chats.get(key) ?? Promise.resolve())
      .then(() =>
        taken
          ? runUpdate(deps, row.id, token, taken.channel, taken.inbound)
          : processUpdate(deps, row.id, token),
      )
      .catch((error: Error) => console.error(`[tg] update ${row.id} failed:`, error.message));
    chats.set(key, run);
    void run.then(() => {
      if (chats.get(key) === run) chats.delete(key);
    });
    return run;
  });
}

/** A file of the messenger, through our signed route: its download URL would carry the bot's token. */
const toAttachment = (channelId: number, a: TgInboundAttachment): Attachment => ({
  type: a.type,
  url: tgFileUrl(channelId, 'file', a.fileId),
});

/**
 * A client writing through a business account gets the connection id in its channel state, so
 * every reply (and any later send) goes through it; the same person writing to the bot
 * directly removes it (a probe of the state's key that finds nothing in ordinary chats).
 */
const businessState = (inbound: TgMessageEvent) => ({
  [BUSINESS_CONNECTION_KEY]: inbound.businessConnectionId ?? null,
});

/**
 * What the message sets before routing: `/start <payload>` (a t.me/<bot>?start= link) keeps the
 * payload in `start_payload`; the client's own shared contact is `client.phone`; the username
 * is `client.username`.
 */
function eventVariables(inbound: TgMessageEvent): Record<string, string> {
  return {
    ...(inbound.command?.name === 'start' ? { start_payload: inbound.command.payload } : {}),
    ...(inbound.phone ? { 'client.phone': inbound.phone } : {}),
    ...(inbound.client.username ? { 'client.username': inbound.client.username } : {}),
  };
}

/** The connection's state, kept so a disabled one's sends fail with a clear error. */
async function recordConnection(deps: EngineDeps, channelId: number, c: TgBusinessConnectionEvent) {
  const state = {
    userId: BigInt(c.userId),
    userChatId: BigInt(c.userChatId),
    enabled: c.enabled,
    canReply: c.canReply,
  };
  await deps.db.tgBusinessConnection.upsert({
    where: { channelId_connectionId: { channelId, connectionId: c.connectionId } },
    create: { channelId, connectionId: c.connectionId, ...state },
    update: state,
  });
}

/**
 * A client who blocked the bot (or removed it from their group) gets no broadcast; one who
 * unblocked it (or added it back) gets them again. A chat the bot never talked to has no client
 * yet and needs none: its first message creates it, subscribed.
 */
async function followMembership(db: Db, channel: UpdateChannel, m: TgMembershipEvent): Promise<void> {
  await db.client.updateMany({
    where: {
      projectId: channel.projectId,
      clientType: TG_CLIENT_TYPE,
      groupId: channel.groupId,
      platformId: String(m.chatId),
    },
    data: { subscribed: m.member },
  });
}

/**
 * Runs one update held under `token` through the engine; a pressed button is always answered.
 * Does nothing when the update was processed or taken by another process meanwhile.
 */
export async function processUpdate(deps: EngineDeps, updateRowId: bigint, token: string): Promise<void> {
  const [claimed] = await plainSql(deps.db).run(claimHeld, {
    id: String(updateRowId),
    token,
    seconds: processHoldSeconds(),
  });
  if (!claimed || claimed.behind) return;
  const channel = {
    id: claimed.channelId,
    projectId: claimed.projectId,
    groupId: claimed.groupId,
    credentials: claimed.credentials,
  };
  await runUpdate(
    deps,
    updateRowId,
    token,
    channel,
    parseUpdate(claimed.payload, { botUsername: channel.groupId }),
  );
}

/**
 * Runs an update this process holds for processing. A message's event marks the update
 * processed in its own final write, so an update is processed exactly when its event is stored.
 */
async function runUpdate(
  deps: EngineDeps,
  updateRowId: bigint,
  token: string,
  channel: UpdateChannel,
  inbound: TgInbound,
): Promise<void> {
  const sql = plainSql(deps.db);
  const done = { statement: finish, params: { id: String(updateRowId), token } };
  const queryId =
    inbound.kind === 'message' || inbound.kind === 'ignore' ? inbound.callbackQueryId : undefined;
  // A pressed button is answered before its flow runs, so its spinner stops at once and no paced
  // send or 429 pause makes the answer too late; the request leaves while the flow runs. A bot
  // that may answer with a link itself (tg_callback_url_open) gets its one answer after the flow
  // instead, still before the flow's messages are sent (see answerAfterFlow).
  const afterFlow =
    queryId !== undefined &&
    inbound.kind === 'message' &&
    (await sql.run(answersCallbacksItself, { projectId: channel.projectId }))[0]?.itself === true;
  const answered = queryId && !afterFlow ? answerCallback(channel, queryId) : undefined;
  try {
    if (inbound.kind === 'message') {
      await handleEvent(
        deps,
        channel.projectId,
        {
          ref: {
            clientType: inbound.client.clientType,
            groupId: channel.groupId,
            platformId: inbound.client.platformId,
            name: inbound.client.name,
            // Stored only when the client is created; fetched from the messenger when opened.
            ...(inbound.chatType === 'private'
              ? { avatar: tgFileUrl(channel.id, 'avatar', inbound.client.platformId) }
              : {}),
          },
        },
        {
          type: 'message',
          text: inbound.text,
          attachments: inbound.attachments.map((a) => toAttachment(channel.id, a)),
          ...(inbound.callbackQueryId ? { callbackQueryId: inbound.callbackQueryId } : {}),
          channelState: businessState(inbound),
          variables: eventVariables(inbound),
        },
        {
          alsoWrite: done,
          ...(afterFlow && queryId ? { afterStore: (log) => answerAfterFlow(channel, queryId, log) } : {}),
        },
      );
    } else if (inbound.kind === 'invalid') {
      // On the channel first: an update marked processed has its reason shown.
      await recordNotProcessed(deps.db, channel.id, `update ${inbound.updateId}: ${inbound.reason}`);
      await sql.run(finishNotProcessed, { ...done.params, error: inbound.reason });
    } else {
      if (inbound.kind === 'business_connection') await recordConnection(deps, channel.id, inbound);
      if (inbound.kind === 'membership') await followMembership(deps.db, channel, inbound);
      await sql.run(done.statement, done.params);
    }
  } catch (error) {
    await sql.run(recordFailure, {
      id: String(updateRowId),
      token,
      error: (error as Error).message,
      maxAttempts: MAX_ATTEMPTS,
    });
    throw error;
  } finally {
    await answered;
  }
}

/**
 * An update the channel could not process (malformed, or not an update at all): the reason is
 * the channel's last error on the Channels tab, and logged.
 */
export async function recordNotProcessed(db: Db, channelId: number, reason: string): Promise<void> {
  const lastError = `An update was not processed: ${reason}`;
  console.warn(`[tg] channel ${channelId}: ${lastError}`);
  await db.channel.updateMany({ where: { id: channelId }, data: { lastError } });
}

/** answerCallbackQuery without text; a refusal (too late, answered already) is only logged. */
async function answerCallback(channel: UpdateChannel, queryId: string): Promise<void> {
  try {
    const result = await channelBot(channel).call((api) => api.answerCallbackQuery(queryId));
    if (!result.ok) console.warn(`[tg] the button press ${queryId} was not answered: ${result.description}`);
  } catch (error) {
    console.error(`[tg] the button press ${queryId} was not answered:`, (error as Error).message);
  }
}

/**
 * The answer of a press whose flow may answer it with a link: the Bot API takes one answer per
 * press, so a flow that called tg_callback_url_open for it has given the answer, and any other
 * press is answered now, once the flow ran and before its messages are sent.
 */
function answerAfterFlow(channel: UpdateChannel, queryId: string, log: readonly LogEntry[]): Promise<void> {
  const answeredByFlow = log.some(
    (e) =>
      e.kind === 'function' &&
      e.data.name === 'tg_callback_url_open' &&
      Array.isArray(e.data.args) &&
      e.data.args[0] === queryId,
  );
  return answeredByFlow ? Promise.resolve() : answerCallback(channel, queryId);
}

/**
 * One pass of the sweeper: processes the updates whose holder died before finishing (or that
 * waited behind an earlier one of their chat), in order, and prunes processed updates older
 * than KEEP_PROCESSED_DAYS. Returns how many updates it took.
 */
export async function sweepTgUpdates(deps: EngineDeps): Promise<number> {
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

export const tgSweepJob = defineJob<Record<string, never>>({
  name: 'tg.sweep',
  policy: 'stately',
  async handle() {
    let taken = 0;
    try {
      taken = await sweepTgUpdates(await getEngineDeps());
    } finally {
      // A full batch may have left more behind: the next pass at once.
      await startSweeper(taken >= SWEEP_BATCH ? 0 : SWEEP_SECONDS);
    }
  },
});

const startSweeper = (afterSeconds: number) =>
  enqueue(
    tgSweepJob,
    {},
    { singletonKey: 'tg-sweep', ...(afterSeconds ? { startAfter: afterSeconds } : {}) },
  );

let sweeperStarted: Promise<unknown> | undefined;

/**
 * The sweeper is a chain of jobs (each pass queues the next; `stately` keeps one queued): the
 * first update a process stores makes sure it exists, so it outlives any one process.
 */
function ensureSweeper(): Promise<unknown> {
  sweeperStarted ??= startSweeper(SWEEP_SECONDS).catch((error: Error) => {
    sweeperStarted = undefined;
    console.error('[tg] the update sweeper could not be queued:', error.message);
  });
  return sweeperStarted;
}
