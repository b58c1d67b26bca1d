import { descriptorOfKind, isSimulatedType, messengerApiName } from '@/lib/channels/descriptors';
import type { PauseState } from '@/lib/inbox/pause';
import { clientBot, isTestRunClient, runsDraft, testRunChannel } from '@/lib/simulator/editions';
import { wellFormed } from '@/lib/storable-json';
import type { ClientTarget } from '@/server/contacts/client-service';
import { plainSql, type Sql, sqlTransaction } from '@/server/db/raw-sql';
import { channelFor } from '@/server/engine/channel-port';
import { type LiveEvent, publishLive } from '@/server/live/live-events';
import { channelLabel, metrics } from '@/server/metrics/metrics';
import { loadBotSchema } from '@/server/projects/bot-schema-store';
import { loadVersionSchema } from '@/server/versions/bot-versions';
import { type FirstPlace, inClientOrder, releaseLease, untilClaimed } from './client-lease';
import { type CompiledBot, getCompiledBot } from './compiled-bot';
import type { EngineDeps } from './engine-deps';
import { EventChain } from './event-chain';
import { runEvent } from './event-run';
import { claimAndLoad, loaded } from './event-state';
import { type AlsoWrite, type StoredOutgoing, storeEventResults } from './event-writes';
import type { EngineEvent, LogEntry } from './events';
import { carryOut } from './outbox';
import { RunState } from './run-state';
import { queueScheduledSend } from './scheduler';
import { type ClaimRow, messageKeyStored } from './store/claim';

export type { StoredOutgoing } from './event-writes';

export interface EventResult {
  clientId: number;
  currentBlockId: number | null;
  messages: StoredOutgoing[];
  log: LogEntry[];
  /**
   * How the event left the client: the handoff's pause (one made or ended by the event
   * included) and the bot it ran. None for a duplicate, which ran nothing.
   */
  left?: { pause: PauseState; bot: CompiledBot };
}

export type EventTarget = ClientTarget;

export interface EventOptions {
  /** The budget of the incoming event this one follows from (a new one for an incoming event). */
  chain?: EventChain;
  /** The outbox row of a follow-up event: marked done with this event's final write. */
  outboxId?: bigint | null;
  /**
   * A statement of the event's source committed with its final write, in the same round trip
   * (a tg update marked processed): it is done exactly when the event is stored.
   */
  alsoWrite?: AlsoWrite;
  /**
   * Called once the event is stored, before its outbox is carried out (a tg button press answered
   * once its flow ran, before the flow's paced sends), with the event's log. Must not throw.
   */
  afterStore?: (log: readonly LogEntry[]) => Promise<void>;
  /**
   * The client claimed ahead by the event's source, in a statement of its own (a channel's
   * update stored and its client claimed at once, server/channels/inbound/pipeline.ts): the first
   * place in the client's queue here, taken before that statement, and the row it claimed (none
   * when it claimed nothing: the event then claims as usual, with the place's token).
   */
  claimedAhead?: ClaimedAhead;
}

export interface ClaimedAhead {
  first: FirstPlace;
  /** The client it was claimed as (the event's target: the source need not make it again). */
  target: EventTarget;
  row?: ClaimRow;
  /** Set once an event took it: its source no longer releases it. */
  used?: boolean;
}

/**
 * The one flow every message takes (docs/architecture.md, "The flow of a message"): claim the
 * client's lease and load its state (the client is created on first contact), route the
 * event and enter blocks with no transaction open (requests wait on the network holding no
 * connection), then store the messages in and out, the variables, the client's block, the
 * log, the other writes and the outbox rows of its side effects in one statement (in a short
 * transaction after the run's own writes, when it has any) that releases the lease (or keeps it
 * for the next event of the client queued in this process, which claims it with the same token);
 * after it, carry out the outbox (channel sends, webhooks, follow-up events) and queue timers.
 * The common path is two statements: the claim with the load, then the store.
 */
export async function handleEvent(
  deps: EngineDeps,
  projectId: number,
  target: EventTarget,
  event: EngineEvent,
  options: EventOptions = {},
): Promise<EventResult> {
  const { chain = new EventChain(), outboxId = null, alsoWrite, afterStore, claimedAhead } = options;
  // Half an emoji a client sent (a lone surrogate) is U+FFFD from here on, as text columns store
  // it: jsonb (a submission's variables, a timer's payload) would refuse it and fail the event.
  event = wellFormed(event);
  if (claimedAhead) claimedAhead.used = true;
  const m = metrics();
  const stopTimer = m.eventDuration.startTimer({ event: event.type });
  const received = (clientType: number, outcome: string) => {
    if (event.type === 'message') m.messagesReceived.inc({ channel: channelLabel(clientType), outcome });
  };
  const outcome = await inClientOrder(projectId, target, claimedAhead?.first, async (turn) => {
    // Events of one client are processed one at a time, in arrival order.
    const { token } = turn;
    const sql = plainSql(deps.db);
    const { client, state } = claimedAhead?.row
      ? await loaded(sql, projectId, claimedAhead.row)
      : await untilClaimed(() => claimAndLoad(sql, projectId, target, token));
    // Checked under the lease: the first copy's final write, which stores the key, came before.
    if (event.type === 'message' && event.dedupeKey && (await isStored(sql, event.dedupeKey))) {
      await releaseLease(sql, client.id, token);
      received(client.clientType, 'duplicate');
      return { duplicateOf: { id: client.id, currentBlockId: client.currentBlockId } };
    }
    const typing = channelFor(client.clientType).typingIndicator === true;
    if (typing) publishLive([{ kind: 'typing', projectId, clientId: client.id, on: true }]);
    try {
      // The simulator runs the draft (or, when asked, the published version); every channel, the
      // API, timers and broadcasts the published version.
      const { schemaRevision, publishedVersion } = state.project;
      const simulated = isSimulatedType(client.clientType);
      const edition = clientBot(client);
      const version = edition.kind === 'version' ? edition.number : publishedVersion;
      const bot =
        edition.kind === 'draft'
          ? await getCompiledBot(projectId, 'draft', schemaRevision, async () => {
              return (await loadBotSchema(deps.db, projectId)).schema;
            })
          : await getCompiledBot(
              projectId,
              edition.kind === 'version' ? `v${version}` : 'published',
              version,
              () => loadVersionSchema(deps.db, projectId, version),
            );
      // A conversation test fixes the time zone, and is left out of analytics and the webhook.
      const testRun = isTestRunClient(client);
      // Only an override of the project's own field (the hot path's rule for literals).
      const timeZone = deps.testRun?.timeZone;
      const run = new RunState(
        deps,
        deps.db,
        timeZone ? { ...state.project, timeZone: timeZone ?? state.project.timeZone } : state.project,
        bot,
        client,
        state.dealId,
        state.variables,
        testMessenger(client) ?? messengerApiName(client.clientType),
        chain,
      );
      await runEvent(run, event);
      run.flushVariables();
      const final = {
        lastMessageAt: event.type === 'message' ? deps.now() : null,
        deliveredWhenStored: channelFor(client.clientType).deliveredWhenStored ?? false,
        leaseToken: token,
        keepLease: turn.keepForNext(),
        // The simulator's test conversations reach the webhook only when the project asks for them.
        hasWebhook:
          state.project.hasWebhook && !testRun && (!simulated || state.project.webhookTestConversations),
        outboxId,
        alsoWrite,
        analytics: testRun ? null : analyticsOf(simulated, runsDraft(client), state.project),
      };
      // One statement commits on its own: a transaction only for a run with writes of its own.
      const stored = run.writes.length
        ? await sqlTransaction(deps.db, async (tx, sql) => {
            for (const write of run.writes) await write(tx);
            return storeEventResults(sql.runAndCommit, run, final);
          })
        : await storeEventResults(sql.run, run, final);
      received(client.clientType, 'handled');
      return { run, stored };
    } catch (error) {
      received(client.clientType, 'failed');
      // The final write releases (or hands on) the lease; an event that failed before it frees the client here.
      await releaseLease(sql, client.id, token).catch(() => {});
      if (typing) publishLive([{ kind: 'typing', projectId, clientId: client.id, on: false }]);
      throw error;
    }
  }).finally(stopTimer);
  if (outcome.duplicateOf) {
    const { id, currentBlockId } = outcome.duplicateOf;
    return { clientId: id, currentBlockId, messages: [], log: [] };
  }
  const { run, stored } = outcome;

  publishLive([
    ...storedMessageEvents(projectId, run.client.id, [
      ...stored.incomingIds,
      ...stored.outgoing.map((m) => m.id),
    ]),
    ...run.deals.moved.map((dealId) => ({
      kind: 'deal' as const,
      projectId,
      clientId: run.client.id,
      dealId,
    })),
  ]);
  await afterStore?.(run.log);
  await queueTimers(deps, projectId, run);
  await carryOut(deps, projectId, run.client, stored.outbox, stored.outgoing, run.chain);
  if (channelFor(run.client.clientType).typingIndicator)
    publishLive([{ kind: 'typing', projectId, clientId: run.client.id, on: false }]);
  return {
    clientId: run.client.id,
    currentBlockId: run.currentBlockId,
    messages: stored.outgoing,
    log: [...run.log],
    left: { pause: run.pause, bot: run.bot },
  };
}

/** The messenger a conversation test's client runs as (`#{messenger}`), when it runs as one. */
function testMessenger(client: { clientType: number; groupId: string }): string | undefined {
  const kind = testRunChannel(client);
  return kind ? descriptorOfKind(kind)?.apiName : undefined;
}

/** A message its channel sent again: the first copy is stored with this key. */
async function isStored(sql: Sql, key: string): Promise<boolean> {
  return (await sql.run(messageKeyStored, { key })).length > 0;
}

function storedMessageEvents(projectId: number, clientId: number, ids: readonly bigint[]): LiveEvent[] {
  return ids.map((id) => ({ kind: 'message', projectId, clientId, messageId: String(id) }));
}

/**
 * Timers' jobs: their ScheduledSend rows were written with the event, and a worker's start
 * queues any whose job is missing (`resumePendingSends`), so none is lost.
 */
async function queueTimers(deps: EngineDeps, projectId: number, run: RunState) {
  for (const jobId of run.timers.cancelledJobs) await deps.scheduler.cancel(jobId).catch(() => {});
  for (const send of run.timers.scheduled)
    await queueScheduledSend(deps.db, deps.scheduler, { projectId, ...send });
}

/**
 * Which published version analytics count the event for (docs/analytics.md), and whether as a
 * test conversation: the simulator's talk to the published version, or to a draft that has no
 * unpublished changes (it is that version); a changed draft's are not counted.
 */
function analyticsOf(
  simulated: boolean,
  draft: boolean,
  project: { publishedVersion: number; draftIsPublished: boolean },
): { version: number; test: boolean } | null {
  if (project.publishedVersion === 0 || (draft && !project.draftIsPublished)) return null;
  return { version: project.publishedVersion, test: simulated };
}
