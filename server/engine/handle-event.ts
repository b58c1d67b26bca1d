import { loadBotSchema } from '@/server/bot-schema/bot-schema-store';
import { channelFor } from '@/server/channels/registry';
import type { ClientTarget } from '@/server/clients/client-service';
import { plainSql, SqlParams, sqlTransaction } from '@/server/db/raw-sql';
import { getCompiledBot } from './compiled-bot';
import type { EngineDeps } from './engine-deps';
import { EventChain } from './event-chain';
import { EventRun } from './event-run';
import { lockAndLoad } from './event-state';
import { type StoredOutgoing, storeEventResults } from './event-writes';
import type { EngineEvent, LogEntry } from './events';

export type { StoredOutgoing } from './event-writes';

const MESSENGERS: Record<number, string> = {
  1: 'tg',
  5: 'online_chat',
  6: 'chatapp',
  10: 'social',
  13: 'telephony',
  99: 'simulator',
};

export interface EventResult {
  clientId: number;
  currentBlockId: number | null;
  messages: StoredOutgoing[];
  log: LogEntry[];
}

export type EventTarget = ClientTarget;

/**
 * The one flow every message takes (DESIGN.md): under the client's lock (the client is created
 * on first contact) route the event, enter blocks, then store the messages in and out, the
 * variables, the client's block and the log together and schedule timers; after the commit,
 * send through the client's channel and run follow-up work. The common path is four
 * statements in two round trips: begin with lock and load, store with commit.
 * `chain`: the budget of the incoming event this one follows from (a new one for an incoming event).
 */
export async function handleEvent(
  deps: EngineDeps,
  projectId: number,
  target: EventTarget,
  event: EngineEvent,
  chain: EventChain = new EventChain(),
): Promise<EventResult> {
  const { run, stored, hasWebhook } = await sqlTransaction(
    deps.db,
    async (tx, sql) => {
      // Events of one client are processed one at a time, in arrival order.
      const { client, state } = await lockAndLoad(sql, projectId, target);
      const bot = await getCompiledBot(projectId, state.project.schemaRevision, () =>
        loadBotSchema(tx, projectId),
      );
      const run = new EventRun(
        deps,
        tx,
        state.project,
        bot,
        client,
        state.dealId,
        state.variables,
        MESSENGERS[client.clientType] ?? String(client.clientType),
        chain,
      );
      await run.process(event);
      run.flushVariables();
      const stored = await storeEventResults(sql, run, {
        lastMessageAt: event.type === 'message' ? deps.now() : null,
        deliveredWhenStored: channelFor(client.clientType).deliveredWhenStored ?? false,
      });
      return { run, stored, hasWebhook: state.project.hasWebhook };
    },
    { timeout: 120_000 },
  );

  const messages = await deliver(deps, run.client, stored.outgoing);
  await afterCommit(deps, projectId, run);
  const storedIds = [...stored.incomingIds, ...messages.map((m) => m.id)];
  if (deps.onMessagesStored && hasWebhook && storedIds.length)
    await deps.onMessagesStored(projectId, storedIds);
  return { clientId: run.client.id, currentBlockId: run.client.currentBlockId, messages, log: run.log };
}

/** Hands stored messages to the client's channel; records outcomes other than the stored one. */
async function deliver(
  deps: EngineDeps,
  client: { id: number; projectId: number; platformId: string; groupId: string; clientType: number },
  messages: StoredOutgoing[],
) {
  const adapter = channelFor(client.clientType);
  const changed: StoredOutgoing[] = [];
  for (const m of messages) {
    const result = await adapter
      .send(client, m)
      .catch((error: Error) => ({ delivered: false, error: error.message }));
    if (result.delivered !== m.delivered || result.error) changed.push(m);
    m.delivered = result.delivered;
    m.error = result.error ?? null;
  }
  if (!changed.length) return messages;
  const params = new SqlParams();
  const rows = changed.map(
    (m) =>
      `(${params.add(String(m.id))}::bigint, ${params.add(m.delivered)}::boolean, ${params.add(m.error)}::text)`,
  );
  await plainSql(deps.db).query(
    `UPDATE "Message" SET delivered = outcome.delivered, error = outcome.error
     FROM (VALUES ${rows.join(', ')}) AS outcome (id, delivered, error) WHERE "Message".id = outcome.id`,
    params.values,
  );
  return messages;
}

async function afterCommit(deps: EngineDeps, projectId: number, run: EventRun) {
  for (const jobId of run.cancelledJobs) await deps.scheduler.cancel(jobId).catch(() => {});
  for (const send of run.scheduled) {
    const jobId = await deps.scheduler.schedule(
      { projectId, clientId: send.clientId, scheduledSendId: send.id },
      send.runAt,
    );
    if (jobId) await deps.db.scheduledSend.update({ where: { id: send.id }, data: { jobId } });
  }
  for (const { clientId: other, event } of run.deferred) {
    await handleEvent(deps, projectId, { clientId: other }, event, run.chain).catch((error: Error) =>
      console.error(`[engine] event for client ${other} failed:`, error.message),
    );
  }
}
