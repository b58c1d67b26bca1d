import { TG_CLIENT_TYPE } from '@/lib/tg/inbound';
import type { PacingLimits } from '@/lib/tg/pacing';
import { renderMessage, type TgSend } from '@/lib/tg/render';
import type {
  ChannelAdapter,
  ChannelClient,
  ChannelContext,
  DeliveryResult,
  OutgoingMessage,
} from '@/server/channels/channel-adapter';
import type { Db, PrismaClient } from '@/server/db/client-type';
import type { TakenSlot } from '@/server/db/tg-pacing-sql';
import type { BotApiClient } from './bot-api';
import { tgRoute } from './business';
import { channelBot, tgChannelFor } from './channel-service';
import { callTgBotApiFunction, TG_BOT_API_FUNCTIONS, type TgBotApiFunction } from './commands';
import { createTgPacer } from './pacing';

/**
 * The tg messenger as a channel: a message is rendered (lib/tg/render) and sent by the bot the
 * client wrote to (its group_id), paced to the messenger's limits across every process; a 429's
 * retry_after pauses the bot everywhere and the send is tried again; a 403 (the user blocked the bot)
 * unsubscribes the client instead.
 */

/** Sends of one message refused with 429 before it is given up (and left to the outbox's retry). */
const MAX_RETRIES = 3;

/** Paced across every process sending for the bot (./pacing). */
const pacer = createTgPacer();

/**
 * For the benchmark's throughput part against a fake Bot API without limits (bench/tg.bench.ts),
 * so it measures the channel rather than the messenger's 30 a second; the app never calls it.
 */
export function setTgPacingLimits(next: PacingLimits): void {
  pacer.setLimits(next);
}

type SendOutcome = { ok: true } | { ok: false; blocked: boolean; error: string };

async function sendOne(
  db: PrismaClient,
  api: BotApiClient,
  channelId: number,
  chatId: string,
  send: TgSend,
  slot: TakenSlot | undefined,
): Promise<SendOutcome> {
  for (let attempt = 0; ; attempt++) {
    const result = await pacer.paced(
      db,
      channelId,
      chatId,
      () => api.call((a) => a.raw[send.method](send.params as never) as Promise<unknown>),
      attempt === 0 ? slot : undefined,
    );
    if (result.ok) return { ok: true };
    // The messenger does not say which limit was hit: the whole bot waits, in every process,
    // so a broadcast stops rather than moving on to the next chat.
    if (result.reason === 'retry_after' && attempt < MAX_RETRIES)
      await pacer.pause(db, channelId, result.retryAfter);
    else
      return {
        ok: false,
        blocked: result.reason === 'blocked',
        error: `${send.method}: ${result.description}`,
      };
  }
}

async function send(
  client: ChannelClient,
  message: OutgoingMessage,
  { db }: ChannelContext,
): Promise<DeliveryResult> {
  const route = await tgRoute(db, client, pacer.slotParams(client.platformId));
  if (route.refused) return { delivered: false, error: route.refused };
  const { channel, business } = route;
  const api = channelBot(channel);
  const { sends } = renderMessage(message, { chat_id: client.platformId, ...business });
  // The route's statement took the first send's slot (a message rendering to no send, which
  // has neither text, attachment nor button, leaves it unused: one slot of the bot lost).
  for (const [i, s] of sends.entries()) {
    const outcome = await sendOne(
      db,
      api,
      channel.id,
      client.platformId,
      s,
      i === 0 ? route.slot : undefined,
    );
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
