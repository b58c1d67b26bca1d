import type { PrismaClient } from '@/server/db/client-type';
import { deleteInBatches } from '@/server/db/delete-in-batches';
import { plainSql } from '@/server/db/raw-sql';
import { channelFor } from '@/server/engine/channel-port';
import { publishLive } from '@/server/live/live-events';
import { pruneWebhookLog } from '@/server/webhooks/webhook-log';
import type { ChannelClient, DeliveryResult } from './channel-port';
import type { EngineDeps } from './engine-deps';
import { EventChain } from './event-chain';
import type { StoredOutgoing } from './event-writes';
import { OUTBOX_CLAIM_SECONDS, type OutboxRow } from './outbox-rows';
import {
  claimExpired,
  extendClaims,
  finishFailed,
  holdBehindHeld,
  holdSends,
  markQueued,
  pruneDoneOutbox,
  recordOutcome,
  recordPartsSent,
  recordSends,
} from './store';

/**
 * The outbox (docs/architecture.md, "The flow of a message"): an event's side effects are rows
 * written with its final write, carried out after the commit by the process that wrote them,
 * and by the sweeper when that process died first.
 */

/**
 * Keeps the rows claimed while `work` carries them out: a send may take longer than a claim
 * (a 5xx tried again for up to BLOCKBOT_TG_RETRY_SECONDS, a 429's pause, a chat's spacing), and
 * the sweeper must not take a row its holder is still sending. A holder that dies stops
 * renewing, and the sweeper takes its rows once the claim runs out.
 */
async function keepClaimed<T>(deps: EngineDeps, rows: { id: bigint }[], work: () => Promise<T>): Promise<T> {
  const ids = rows.map((r) => String(r.id));
  const renew = () =>
    plainSql(deps.db)
      .run(extendClaims, { ids })
      .catch((error: Error) => console.error('[outbox] claim renewal failed:', error.message));
  const timer = setInterval(renew, (OUTBOX_CLAIM_SECONDS * 1000) / 3).unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** One message for `sendMessages`, with what the outbox knows of its earlier tries. */
export interface OutboxSend {
  outboxId: bigint;
  message: StoredOutgoing;
  partsSent?: number;
  /** A row taken by the sweeper: how often it was taken, and when it was written. */
  attempt?: number;
  queuedAt?: Date;
}

/**
 * Hands a client's messages to its channel in order, with the message id as the idempotency
 * key, and records each answer (delivered or the error) on the message and its outbox row
 * together, as soon as it comes: a process that dies between two sends has recorded the first,
 * so the sweeper does not send it again. A message the channel sends in parts (a photo, then a
 * long text) has each answered part but the last recorded on its row, and a try taken over
 * after a crash starts from the next part. The next send waits for that record: one short
 * statement, shared with the sends of other clients answered meanwhile (recordSends); the tg
 * messenger spaces a chat's messages a second apart anyway.
 *
 * A send the channel holds (`retryAt`) stays pending until then, and the client's later
 * messages wait behind it, untried: those given here after it, and, for a channel that may
 * hold, those of later events (holdBehindHeld), so none overtakes another.
 */
export async function sendMessages(
  deps: EngineDeps,
  client: ChannelClient,
  sends: OutboxSend[],
): Promise<void> {
  if (!sends.length) return;
  const adapter = channelFor(client.clientType);
  const sql = plainSql(deps.db);
  const heldFrom = adapter.holdsSends ? await holdBehindEarlier(deps, client, sends) : sends.length;
  for (let i = 0; i < heldFrom; i++) {
    const { outboxId, message, partsSent, attempt, queuedAt } = sends[i];
    const result = await adapter
      .send(client, message, {
        db: deps.db,
        idempotencyKey: `message-${message.id}`,
        partsSent,
        attempt: attempt ?? 0,
        queuedAt,
        onPartSent: async (count) => {
          await sql.run(recordPartsSent, { outboxId: String(outboxId), count });
        },
      })
      .catch((error: Error): DeliveryResult => ({ delivered: false, error: error.message }));
    message.delivered = result.delivered;
    message.error = result.error ?? null;
    if (result.retryAt && !result.delivered) {
      await hold(deps, sends.slice(i), result.retryAt, result.error ?? 'The messenger could not take it yet');
      break;
    }
    await recordSends.run(deps.db, {
      outboxId: String(outboxId),
      messageId: String(message.id),
      delivered: message.delivered,
      error: message.error,
      externalId: result.externalId ?? null,
    });
  }
  publishLive(
    sends.map(({ message }) => ({
      kind: 'message',
      projectId: client.projectId,
      clientId: client.id,
      messageId: String(message.id),
    })),
  );
}

/** Holds the sends until `until`: they stay pending, their messages queued with the reason. */
async function hold(deps: EngineDeps, sends: OutboxSend[], retryAt: Date, error: string) {
  for (const { message } of sends) {
    message.delivered = false;
    message.error = error;
    message.held = true;
  }
  // A second at least: the sweeper takes every row that is due until none is left.
  const until = new Date(Math.max(retryAt.getTime(), Date.now() + 1000));
  await plainSql(deps.db).run(holdSends, { ids: sends.map((s) => String(s.outboxId)), until, error });
}

/**
 * Holds the sends behind the client's earlier held ones, if it has any; the index of the first
 * held one (all of them, or none: `sends.length`).
 */
async function holdBehindEarlier(deps: EngineDeps, client: ChannelClient, sends: OutboxSend[]) {
  const held = await plainSql(deps.db).run(holdBehindHeld, {
    clientId: client.id,
    firstId: String(sends[0].outboxId),
    ids: sends.map((s) => String(s.outboxId)),
  });
  if (!held.length) return sends.length;
  for (const { message } of sends) {
    message.delivered = false;
    message.error = held[0].error;
    message.held = true;
  }
  return 0;
}

/** Queues the webhook deliveries; from then on their jobs carry them (and retry a cut-off one). */
export async function queueWebhooks(deps: EngineDeps, projectId: number, rows: OutboxRow[]): Promise<void> {
  const deliveries = rows.flatMap((r) =>
    r.kind === 'webhook' ? [{ outboxId: r.id, target: r.target }] : [],
  );
  if (!deliveries.length || !deps.queueWebhooks) return;
  await deps.queueWebhooks(projectId, deliveries);
  await plainSql(deps.db).run(markQueued, { ids: deliveries.map((d) => String(d.outboxId)) });
}

/** Events for other clients; each marks its row done with its own final write. */
async function runFollowUps(deps: EngineDeps, projectId: number, rows: OutboxRow[], chain: EventChain) {
  const followUps = rows.filter((row) => row.kind === 'follow_up');
  if (!followUps.length) return;
  // Imported here (handle-event imports this module), and only when needed: a dynamic import
  // costs a module resolution each time, on every event otherwise.
  const { handleEvent } = await import('./handle-event');
  for (const row of followUps) {
    await handleEvent(deps, projectId, { clientId: row.clientId }, row.event, {
      chain,
      outboxId: row.id,
    }).catch(async (error: Error) => {
      console.error(`[engine] event for client ${row.clientId} failed:`, error.message);
      await plainSql(deps.db).run(finishFailed, { id: String(row.id), error: error.message });
    });
  }
}

/**
 * Hands the messages of a channel that stores them delivered (the simulator) to it, with no
 * outbox row: its answer is recorded only when it is an error.
 */
async function handOver(deps: EngineDeps, client: ChannelClient, outgoing: StoredOutgoing[]) {
  const adapter = channelFor(client.clientType);
  for (const message of outgoing) {
    const result = await adapter
      .send(client, message, { db: deps.db, idempotencyKey: `message-${message.id}` })
      .catch((error: Error) => ({ delivered: false, error: error.message }));
    if (result.delivered) continue;
    message.delivered = false;
    message.error = result.error ?? 'not delivered';
    await plainSql(deps.db).run(recordOutcome, { id: String(message.id), error: message.error });
    publishLive([
      { kind: 'message', projectId: client.projectId, clientId: client.id, messageId: String(message.id) },
    ]);
  }
}

/**
 * Carries out what one event just committed to its outbox: sends first (their outcome goes in
 * the webhook's `delivered`), then webhooks, then follow-up events.
 */
export async function carryOut(
  deps: EngineDeps,
  projectId: number,
  client: ChannelClient,
  rows: OutboxRow[],
  outgoing: StoredOutgoing[],
  chain: EventChain,
): Promise<void> {
  if (channelFor(client.clientType).deliveredWhenStored) await handOver(deps, client, outgoing);
  if (!rows.length) return;
  const byId = new Map(outgoing.map((m) => [m.id, m]));
  await keepClaimed(deps, rows, async () => {
    await sendMessages(
      deps,
      client,
      rows.flatMap((r) => {
        const message = r.kind === 'send' ? byId.get(r.messageId) : undefined;
        return message ? [{ outboxId: r.id, message }] : [];
      }),
    );
    await queueWebhooks(deps, projectId, rows);
  });
  await runFollowUps(deps, projectId, rows, chain);
}

/**
 * Carries out rows whose holder died before it finished (its claim expired): after a crash,
 * at a worker's start, and every few seconds while it runs. Returns how many it took.
 */
export async function sweepOutbox(deps: EngineDeps): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await plainSql(deps.db).run(claimExpired, {});
    if (!claimed.length) return total;
    total += claimed.length;
    const projects = new Map<number, OutboxRow[]>();
    for (const { projectId, row } of claimed)
      projects.set(projectId, [...(projects.get(projectId) ?? []), row]);
    for (const [projectId, rows] of projects) {
      await keepClaimed(deps, rows, async () => {
        await resend(deps, rows);
        await queueWebhooks(deps, projectId, rows);
      });
      // A new budget: the event that caused them is gone.
      await runFollowUps(deps, projectId, rows, new EventChain());
    }
  }
}

/**
 * Sends of rows taken over (after a crash, or held until now): the messages as stored, to their
 * clients' channels, each client's in the order they were written.
 */
async function resend(deps: EngineDeps, rows: OutboxRow[]) {
  const sends = rows.flatMap((r) => (r.kind === 'send' ? [r] : [])).sort((a, b) => (a.id < b.id ? -1 : 1));
  if (!sends.length) return;
  const messages = new Map(
    (
      await deps.db.message.findMany({
        where: { id: { in: sends.map((s) => s.messageId) } },
        include: { client: true },
      })
    ).map((m) => [m.id, m]),
  );
  const byClient = new Map<number, { client: ChannelClient; sends: OutboxSend[] }>();
  for (const row of sends) {
    const m = messages.get(row.messageId);
    if (!m) continue;
    const entry = byClient.get(m.clientId) ?? { client: m.client, sends: [] };
    byClient.set(m.clientId, entry);
    entry.sends.push({
      outboxId: row.id,
      message: {
        id: m.id,
        text: m.text,
        attachments: m.attachments as StoredOutgoing['attachments'],
        buttons: m.buttons as StoredOutgoing['buttons'],
        blockId: m.blockId,
        delivered: m.delivered,
        error: m.error,
      },
      partsSent: row.partsSent,
      attempt: row.attempt,
      queuedAt: row.queuedAt,
    });
  }
  for (const { client, sends: clientSends } of byClient.values())
    await sendMessages(deps, client, clientSends);
}

/**
 * Done rows are kept this long, then pruned: a delivery's job retried later (minutes, at most)
 * finds its row done, or gone, and sends nothing either way.
 */
export const OUTBOX_KEEP_DAYS = 7;

/** Deletes done rows older than OUTBOX_KEEP_DAYS, a bounded batch a statement; how many. */
export function pruneOutbox(db: PrismaClient): Promise<number> {
  return deleteInBatches(
    async (batch) => (await plainSql(db).run(pruneDoneOutbox, { batch, keepDays: OUTBOX_KEEP_DAYS })).length,
  );
}

const globalForOutbox = globalThis as unknown as {
  blockbotOutboxSweeper?: { timer: NodeJS.Timeout; sweep: () => Promise<void> };
};

/** The worker's sweeper: once now, then every claim period (and when woken). */
export async function startOutboxSweeper(deps: EngineDeps): Promise<void> {
  let prunedAt = 0;
  let running: Promise<void> | null = null;
  const sweepOnce = async () => {
    await sweepOutbox(deps).catch((error: Error) => console.error('[outbox] sweep failed:', error.message));
    // The webhook log's old rows (WEBHOOK_LOG_DAYS) and the outbox's done ones, every 10 minutes.
    if (Date.now() - prunedAt < 10 * 60_000) return;
    prunedAt = Date.now();
    await pruneWebhookLog(deps.db).catch((error: Error) =>
      console.error('[outbox] pruning the webhook log failed:', error.message),
    );
    await pruneOutbox(deps.db).catch((error: Error) =>
      console.error('[outbox] pruning done rows failed:', error.message),
    );
  };
  // One sweep at a time in a process; a wake during a sweep runs one more after it.
  let again = false;
  const sweep = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = sweepOnce().finally(() => {
      running = null;
      if (again) {
        again = false;
        void sweep();
      }
    });
    return running;
  };
  await sweep();
  globalForOutbox.blockbotOutboxSweeper ??= {
    timer: setInterval(sweep, OUTBOX_CLAIM_SECONDS * 1000).unref(),
    sweep,
  };
}

/**
 * Sweeps now, when this process runs the sweeper (a held send made due); otherwise the worker's
 * sweeper takes the rows within a claim period.
 */
export function wakeOutboxSweeper(): void {
  void globalForOutbox.blockbotOutboxSweeper?.sweep();
}
