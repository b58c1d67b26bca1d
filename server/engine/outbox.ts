import type { PrismaClient } from '@/server/db/client-type';
import { deleteInBatches } from '@/server/db/delete-in-batches';
import { plainSql } from '@/server/db/raw-sql';
import { channelFor } from '@/server/engine/channel-port';
import { logFor } from '@/server/log';
import { pruneWebhookLog } from '@/server/webhooks/webhook-log';
import type { ChannelClient } from './channel-port';
import type { EngineDeps } from './engine-deps';
import { EventChain } from './event-chain';
import type { StoredOutgoing } from './event-writes';
import { OUTBOX_CLAIM_SECONDS, type OutboxRow } from './outbox-rows';
import { handOver, resend, sendMessages } from './outbox-sends';
import { claimExpired, extendClaims, finishFailed, markQueued, pruneDoneOutbox } from './store/outbox';

const log = logFor('outbox');

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
      .catch((error: Error) => log.error(`claim renewal failed: ${error.message}`));
  const timer = setInterval(renew, (OUTBOX_CLAIM_SECONDS * 1000) / 3).unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
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
      log.error({ clientId: row.clientId }, `event for client ${row.clientId} failed: ${error.message}`);
      await plainSql(deps.db).run(finishFailed, { id: String(row.id), error: error.message });
    });
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
    await sweepOutbox(deps).catch((error: Error) => log.error(`sweep failed: ${error.message}`));
    // The webhook log's old rows (WEBHOOK_LOG_DAYS) and the outbox's done ones, every 10 minutes.
    if (Date.now() - prunedAt < 10 * 60_000) return;
    prunedAt = Date.now();
    await pruneWebhookLog(deps.db).catch((error: Error) =>
      log.error(`pruning the webhook log failed: ${error.message}`),
    );
    await pruneOutbox(deps.db).catch((error: Error) =>
      log.error(`pruning done rows failed: ${error.message}`),
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
