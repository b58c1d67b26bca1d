import { setTimeout as sleep } from 'node:timers/promises';
import { retryPause } from '@/lib/channels/retry';
import { TG_CLIENT_TYPE } from '@/lib/tg/inbound';
import type { PacingLimits } from '@/lib/tg/pacing';
import { renderMessage, type TgSend } from '@/lib/tg/render';
import type {
  ChannelAdapter,
  ChannelClient,
  DeliveryResult,
  OutgoingMessage,
  SendContext,
} from '@/server/channels/channel-adapter';
import type { TakenSlot } from '@/server/db/channel-pacing-sql';
import type { Db, PrismaClient } from '@/server/db/client-type';
import type { BotApiClient } from './bot-api';
import { tgRoute } from './business';
import { channelBot, tgChannelFor } from './channel-service';
import { callTgBotApiFunction, TG_BOT_API_FUNCTIONS, type TgBotApiFunction } from './commands';
import { tgEnv } from './env';
import { createTgPacer, type TgPacer, type TgTurn } from './pacing';

/**
 * The tg messenger as a channel: a message is rendered (lib/tg/render) and sent by the bot the
 * client wrote to (its group_id), paced to the messenger's limits across every process; a 429's
 * retry_after pauses the bot everywhere and the send is tried again, as is one the Bot API could
 * not take (5xx, network), with growing pauses for BLOCKBOT_TG_RETRY_SECONDS; a 403 (the user
 * blocked the bot) unsubscribes the client instead.
 */

/** Sends of one message refused with 429 before it is given up (and its error recorded). */
const MAX_RETRIES = 3;

/**
 * Paced across every process sending for the bot (./pacing). One per process, not per module
 * copy: the server's bundles (a webhook route, the job worker) may each load this module, and
 * their sends count together against the bot's limits.
 */
const processGlobal = globalThis as unknown as { blockbotTgPacer?: TgPacer };
processGlobal.blockbotTgPacer ??= createTgPacer();
const pacer = processGlobal.blockbotTgPacer;

/**
 * For the benchmark's throughput part against a fake Bot API without limits (bench/tg.bench.ts),
 * so it measures the channel rather than the messenger's 30 a second; the app never calls it.
 */
export function setTgPacingLimits(next: PacingLimits): void {
  pacer.setLimits(next);
}

type SendOutcome = { ok: true; messageId?: string } | { ok: false; blocked: boolean; error: string };

/** The id the Bot API gave what it sent (a media group's: its last message's). */
function sentMessageId(result: unknown): string | undefined {
  const sent = Array.isArray(result) ? result.at(-1) : result;
  const id = (sent as { message_id?: unknown } | null)?.message_id;
  return typeof id === 'number' ? String(id) : undefined;
}

/** One Bot API send of a message, in its turn and slot, tried again while that can help. */
async function sendOne(
  db: PrismaClient,
  api: BotApiClient,
  bot: { key: string; channelId: number },
  chatId: string,
  send: TgSend,
  first: { turn: TgTurn; slot: TakenSlot | undefined } | undefined,
): Promise<SendOutcome> {
  const started = Date.now();
  const retryWithinMs = tgEnv().BLOCKBOT_TG_RETRY_SECONDS * 1000;
  let limited = 0;
  let unavailable = 0;
  for (let attempt = 0; ; attempt++) {
    const turn = attempt === 0 && first ? first.turn : await pacer.turn(bot.key, chatId);
    const result = await turn.send(
      db,
      bot.channelId,
      () => api.call((a) => a.raw[send.method](send.params as never) as Promise<unknown>),
      attempt === 0 ? first?.slot : undefined,
    );
    if (result.ok) return { ok: true, messageId: sentMessageId(result.result) };
    // The messenger does not say which limit was hit: the whole bot waits, in every process,
    // so a broadcast stops rather than moving on to the next chat.
    if (result.reason === 'retry_after' && limited++ < MAX_RETRIES) {
      await pacer.pause(db, bot.channelId, result.retryAfter);
      continue;
    }
    // A 5xx or a lost connection: the service may be restarting. (A request that reached it
    // before the connection broke may be sent twice: the Bot API has no idempotency key.) The
    // next try's turn also spaces it from this one in the chat, as the service may have counted it.
    const pause =
      result.reason === 'unavailable' ? retryPause(unavailable++, Date.now() - started, retryWithinMs) : null;
    if (pause !== null) {
      await sleep(pause);
      continue;
    }
    return {
      ok: false,
      blocked: result.reason === 'blocked',
      error: `${send.method}: ${result.description}`,
    };
  }
}

/**
 * Sends the message's Bot API calls in order, from the first one without a recorded answer
 * (`partsSent`, after a crash), recording each answered one but the last (`onPartSent`).
 */
async function send(
  client: ChannelClient,
  message: OutgoingMessage,
  context: SendContext,
): Promise<DeliveryResult> {
  const bot = { key: `${client.projectId}:${client.groupId.toLowerCase()}` };
  // The turn comes before the route's statement, which takes the first send's slot with it.
  const turn = await pacer.turn(bot.key, client.platformId);
  try {
    return await sendParts(client, message, context, bot.key, turn);
  } finally {
    // Unless its send settled it: a route refused or missing, a message rendering to no send.
    turn.cancel();
  }
}

async function sendParts(
  client: ChannelClient,
  message: OutgoingMessage,
  context: SendContext,
  botKey: string,
  turn: TgTurn,
): Promise<DeliveryResult> {
  const { db } = context;
  const route = await tgRoute(db, client, pacer.slotParams(client.platformId));
  if (route.refused) return { delivered: false, error: route.refused };
  const { channel, business } = route;
  const api = channelBot(channel);
  const { sends } = renderMessage(message, { chat_id: client.platformId, ...business });
  const from = Math.min(context.partsSent ?? 0, sends.length);
  let externalId: string | undefined;
  for (let i = from; i < sends.length; i++) {
    const outcome = await sendOne(
      db,
      api,
      { key: botKey, channelId: channel.id },
      client.platformId,
      sends[i],
      i === from ? { turn, slot: route.slot } : undefined,
    );
    if (!outcome.ok) {
      if (outcome.blocked) await db.client.update({ where: { id: client.id }, data: { subscribed: false } });
      return { delivered: false, error: outcome.error };
    }
    externalId = outcome.messageId;
    if (i < sends.length - 1) await context.onPartSent?.(i + 1);
  }
  return { delivered: true, externalId };
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
