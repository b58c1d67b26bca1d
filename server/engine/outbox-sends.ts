import { plainSql } from '@/server/db/raw-sql';
import { channelFor } from '@/server/engine/channel-port';
import { publishLive } from '@/server/live/live-events';
import { channelLabel, metrics } from '@/server/metrics/metrics';
import type { ChannelClient, DeliveryResult } from './channel-port';
import type { EngineDeps } from './engine-deps';
import type { StoredOutgoing } from './event-writes';
import type { OutboxRow } from './outbox-rows';
import { holdBehindHeld, holdSends, recordOutcome, recordPartsSent, recordSends } from './store/outbox';

/**
 * The outbox's sends (outbox.ts carries out the rest): a client's messages handed to its
 * channel in order, each answer recorded as it comes, held sends kept in order.
 */

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
    countSent(client, result.delivered ? 'sent' : result.retryAt ? 'held' : 'failed');
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

function countSent(client: ChannelClient, outcome: 'sent' | 'held' | 'failed') {
  metrics().messagesSent.inc({ channel: channelLabel(client.clientType), outcome });
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

/**
 * Hands the messages of a channel that stores them delivered (the simulator) to it, with no
 * outbox row: its answer is recorded only when it is an error.
 */
export async function handOver(deps: EngineDeps, client: ChannelClient, outgoing: StoredOutgoing[]) {
  const adapter = channelFor(client.clientType);
  for (const message of outgoing) {
    const result = await adapter
      .send(client, message, { db: deps.db, idempotencyKey: `message-${message.id}` })
      .catch((error: Error) => ({ delivered: false, error: error.message }));
    countSent(client, result.delivered ? 'sent' : 'failed');
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
 * Sends of rows taken over (after a crash, or held until now): the messages as stored, to their
 * clients' channels, each client's in the order they were written.
 */
export async function resend(deps: EngineDeps, rows: OutboxRow[]) {
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
