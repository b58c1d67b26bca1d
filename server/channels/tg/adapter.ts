import { setTimeout as sleep } from 'node:timers/promises';
import { BUSINESS_CONNECTION_VARIABLE, TG_CLIENT_TYPE } from '@/lib/tg/inbound';
import {
  emptyPacing,
  nextSendAt,
  type PacingLimits,
  type PacingState,
  recordRetryAfter,
  recordSend,
  TG_LIMITS,
} from '@/lib/tg/pacing';
import { renderMessage, type TgSend } from '@/lib/tg/render';
import type {
  ChannelAdapter,
  ChannelClient,
  ChannelContext,
  DeliveryResult,
  OutgoingMessage,
} from '@/server/channels/channel-adapter';
import type { Db } from '@/server/db/client-type';
import type { BotApiClient } from './bot-api';
import { channelBot, tgChannelFor } from './channel-service';
import { callTgBotApiFunction, TG_BOT_API_FUNCTIONS, type TgBotApiFunction } from './commands';

/**
 * The tg messenger as a channel: a message is rendered (lib/tg/render) and sent by the bot the
 * client wrote to (its group_id), paced to the messenger's limits in this process; a 429's
 * retry_after pauses the bot and the send is tried again; a 403 (the user blocked the bot)
 * unsubscribes the client instead.
 */

/** Sends of one message refused with 429 before it is given up (and left to the outbox's retry). */
const MAX_RETRIES = 3;

/** The limits' state per bot, for this process. */
const pacing = new Map<string, PacingState>();
/**
 * Requests reach the messenger with some jitter, and it counts arrivals: a chat's next send
 * waits a little longer than its limit, and a bot's sends are spread evenly over the second
 * (not 30 at once), so no window ever holds one too many.
 */
const JITTER_MS = 50;
const withMargin = (l: PacingLimits): PacingLimits => ({
  ...l,
  privateChatIntervalMs: l.privateChatIntervalMs && l.privateChatIntervalMs + JITTER_MS,
});
let limits = withMargin(TG_LIMITS);
const CLOCK_MARGIN_MS = 5;

/**
 * For the benchmark's throughput part against a fake Bot API without limits (bench/tg.bench.ts),
 * so it measures the channel rather than the messenger's 30 a second; the app never calls it.
 */
export function setTgPacingLimits(next: PacingLimits): void {
  limits = withMargin(next);
  pacing.clear();
  answered.clear();
}

/**
 * Per bot, for each of its latest sends: when it and every send before it were answered
 * (pending while one is in flight).
 */
const answered = new Map<string, Promise<number>[]>();

/**
 * The messenger counts a send when it gets there, which may be well after its timer fired (a
 * busy event loop, a queued connection): a bot's send goes only once the one `botPerSecond`
 * before it, and all earlier ones, were answered at least a second ago, so no second of the
 * messenger holds one too many (any 31 sends span one that went a second after another's answer).
 */
async function inBotWindow(bot: string, run: () => Promise<void>): Promise<void> {
  const count = limits.botPerSecond;
  const latest = answered.get(bot) ?? [];
  const before = latest.length >= count ? latest[latest.length - count] : undefined;
  let done = (_at: number) => {};
  const mine = new Promise<number>((resolve) => (done = resolve));
  const upTo = Promise.all([latest.at(-1) ?? 0, mine]).then(([a, b]) => Math.max(a, b));
  answered.set(bot, [...latest.slice(1 - count), upTo]);
  try {
    if (before) {
      // A few ms more: timers may fire a millisecond early against the wall clock.
      const at = (await before) + 1000 + CLOCK_MARGIN_MS;
      if (at > Date.now()) await sleep(at - Date.now());
    }
    await run();
  } finally {
    done(Date.now());
  }
}

async function paced(bot: string, chatId: string, run: () => Promise<void>): Promise<void> {
  const state = pacing.get(bot) ?? emptyPacing();
  const spread = (state.botSends.at(-1) ?? Number.NEGATIVE_INFINITY) + 1000 / limits.botPerSecond;
  const at = Math.max(nextSendAt(state, chatId, Date.now(), limits), spread);
  // Taken before waiting, so sends started meanwhile queue behind this one.
  pacing.set(bot, recordSend(pacing.get(bot) ?? emptyPacing(), chatId, at, limits));
  if (at > Date.now()) await sleep(at - Date.now());
  // Unlimited (the benchmark's throughput part): nothing to count.
  if (limits.botPerSecond > 1000) await run();
  else await inBotWindow(bot, run);
}

type SendOutcome = { ok: true } | { ok: false; blocked: boolean; error: string };

async function sendOne(api: BotApiClient, bot: string, chatId: string, send: TgSend): Promise<SendOutcome> {
  for (let attempt = 0; ; attempt++) {
    let outcome: SendOutcome | 'retry' = 'retry';
    await paced(bot, chatId, async () => {
      const result = await api.call((a) => a.raw[send.method](send.params as never) as Promise<unknown>);
      if (result.ok) outcome = { ok: true };
      else if (result.reason === 'retry_after' && attempt < MAX_RETRIES)
        pacing.set(
          bot,
          recordRetryAfter(
            pacing.get(bot) ?? emptyPacing(),
            { retryAfterSeconds: result.retryAfter },
            Date.now(),
          ),
        );
      else
        outcome = {
          ok: false,
          blocked: result.reason === 'blocked',
          error: `${send.method}: ${result.description}`,
        };
    });
    if (outcome !== 'retry') return outcome;
  }
}

/**
 * A client of a business account is answered through its connection (the id its last message
 * carried); one the owner disabled, or left without the right to reply, is refused here.
 */
async function businessTarget(
  db: Db,
  channelId: number,
  clientId: number,
): Promise<{ business_connection_id?: string; refused?: string }> {
  const kept = await db.clientVariable.findUnique({
    where: { clientId_name: { clientId, name: BUSINESS_CONNECTION_VARIABLE } },
  });
  if (!kept?.value) return {};
  const connection = await db.tgBusinessConnection.findUnique({
    where: { channelId_connectionId: { channelId, connectionId: kept.value } },
  });
  // Unseen (connected before the bot was): the messenger itself accepts or refuses it.
  if (!connection || (connection.enabled && connection.canReply))
    return { business_connection_id: kept.value };
  return {
    refused: `the business connection ${kept.value} ${
      connection.enabled ? 'does not allow the bot to reply' : 'is disabled'
    }: the business account's owner must turn the bot back on (with the right to reply) in the messenger's Business settings`,
  };
}

async function send(
  client: ChannelClient,
  message: OutgoingMessage,
  { db }: ChannelContext,
): Promise<DeliveryResult> {
  const channel = await tgChannelFor(db, client.projectId, client.groupId);
  const api = channelBot(channel);
  const { refused, ...business } = await businessTarget(db, channel.id, client.id);
  if (refused) return { delivered: false, error: refused };
  const { sends } = renderMessage(message, { chat_id: client.platformId, ...business });
  for (const s of sends) {
    const outcome = await sendOne(api, channel.groupId, client.platformId, s);
    if (outcome.ok) continue;
    if (outcome.blocked) await db.client.update({ where: { id: client.id }, data: { subscribed: false } });
    return { delivered: false, error: outcome.error };
  }
  return { delivered: true };
}

/** The bot of the client the function runs for, else the project's only tg bot. */
async function botFor(db: Db, projectId: number, clientId: unknown) {
  const client =
    typeof clientId === 'number' ? await db.client.findFirst({ where: { id: clientId, projectId } }) : null;
  if (client?.clientType === TG_CLIENT_TYPE)
    return channelBot(await tgChannelFor(db, projectId, client.groupId));
  const bots = await db.channel.findMany({ where: { projectId, clientType: TG_CLIENT_TYPE }, take: 2 });
  if (bots.length === 1) return channelBot(bots[0]);
  throw new Error(
    bots.length
      ? 'several tg bots are connected: call this function in the flow of a tg client, so its bot is used'
      : 'no tg bot is connected to this project; connect one on the Channels tab',
  );
}

export const tgChannel: ChannelAdapter = {
  clientType: TG_CLIENT_TYPE,
  send,
  async call(projectId, fn, input, { db }) {
    if (!(TG_BOT_API_FUNCTIONS as readonly string[]).includes(fn))
      throw new Error(`${fn} is not a function of the tg messenger`);
    const args = Array.isArray(input.args) ? input.args : [];
    return callTgBotApiFunction(await botFor(db, projectId, input.clientId), fn as TgBotApiFunction, args);
  },
};
