import { setTimeout as sleep } from 'node:timers/promises';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import { holdOrFail, retryPause } from '@/lib/channels/retry';
import {
  type CloudMessageBody,
  renderCloudMessage,
  renderCloudTemplate,
  templateLeftOut,
} from '@/lib/chatapp/cloud-render';
import {
  LAST_MESSAGE_KEY,
  REENGAGEMENT_CODE,
  WINDOW_CLOSED_KEY,
  windowOpen,
} from '@/lib/chatapp/cloud-window';
import { type GatewaySend, renderGatewayMessage } from '@/lib/chatapp/gateway-render';
import { gatewayChatId } from '@/lib/chatapp/gateway-webhook';
import type {
  ChannelAdapter,
  ChannelClient,
  DeliveryResult,
  OutgoingMessage,
  SendContext,
} from '@/server/channels/channel-adapter';
import { slowRate, takeRateSlot } from '@/server/db/channel-pacing-sql';
import type { PrismaClient } from '@/server/db/client-type';
import { plainSql } from '@/server/db/raw-sql';
import { DomainError } from '@/server/errors';
import type { GraphApi, GraphResult } from '../meta/graph-api';
import { graphPartOutcome, sendInParts } from '../send-parts';
import {
  CHATAPP_CLIENT_TYPE,
  chatappSettings,
  cloudApi,
  cloudCredentials,
  type WindowTemplate,
} from './channel-service';
import { chatappEnv } from './env';
import type { GatewayApi, GatewayResult } from './gateway-api';
import { gatewayApiOf, gatewayCredentials, isGatewayChannel } from './gateway-service';
import { createSendSpacing } from './send-spacing';
import { chatappSendRoute, closeWindow } from './sql';

/**
 * The chat-app messenger's Cloud API numbers as a channel: a message is rendered within the
 * API's limits (lib/chatapp/cloud-render) and sent by the number the client wrote to (its
 * group_id). Outside the client's 24-hour window the number's window template is sent
 * instead, or the message fails with why. Sends of one number are spaced to its throughput;
 * a rate limit (130429, 131056), a 5xx or a lost connection is tried again with growing pauses
 * within BLOCKBOT_CHATAPP_RETRY_SECONDS; a refusal (131026, 131047, bad parameters) never is.
 * A number paired through a session gateway sends through it (`sendGateway`): no window, no
 * template, buttons as numbered text; while its session is not working, messages are held
 * (queued, in order) for BLOCKBOT_CHATAPP_HOLD_HOURS and sent once it works again.
 */

/**
 * The Cloud API's default throughput of a number is 80 messages a second. This process sends
 * at most 90 % of it, one send at a time apart, spaced from when the last one really left (a
 * stalled event loop must not let sends planned apart leave together), as requests reach the
 * API closer together than they left.
 */
const THROUGHPUT_PER_SECOND = 80 * 0.9;
const spacing = createSendSpacing(1000 / THROUGHPUT_PER_SECOND);
/**
 * Every process's sends of a number together keep to the same rate: each send also takes its
 * slot of the number from the database (the first with its route, ./sql.ts).
 */
let slotMs = 1000 / THROUGHPUT_PER_SECOND;
/** The pair rate limit asks for about 6 s between messages to one user once a burst was spent. */
const PAIR_RATE_PAUSE_MS = 6000;

/**
 * For the benchmark against a fake Cloud API without limits (bench/chatapp.bench.ts), so it
 * measures the channel rather than the number's throughput; the app never calls it.
 */
export function setChatappThroughput(perSecond: number): void {
  spacing.setInterval(1000 / perSecond);
  slotMs = 1000 / perSecond;
}

/** A slot of the number taken: how long until it, and the number's interval it was taken at. */
type RateSlot = { waitMs: number; rateMs: number };

/**
 * Waits for the number's next slot shared by every process (the first send's came with its
 * route); answers the interval it was taken at (the number's, slower after a rate limit).
 */
// No spacing per client: the pair rate limit (131056) is waited out when the API answers it.
async function numberSlot(db: PrismaClient, channelId: number, taken: RateSlot | null): Promise<number> {
  const slot = taken ?? (await plainSql(db).run(takeRateSlot, { channelId, rateMs: slotMs }))[0];
  if (slot.waitMs > 0) await sleep(slot.waitMs);
  return slot.rateMs;
}

type Outcome =
  | { ok: true; messageId?: string }
  | { ok: false; error: string; invalidToken: boolean; code?: number; retryAt?: Date };

/** The Cloud API's answer when the number's throughput is spent. */
const THROUGHPUT_LIMIT_CODE = 130429;

/**
 * One message to the API, in the number's pace, tried again while that can help: in the
 * process for the first BLOCKBOT_CHATAPP_RETRY_SECONDS of a send's first try, then held (`held`).
 * A throughput limit (130429) also slows the number, for every process (slowRate), from the
 * pace the refused send was taken at.
 */
async function sendOne(
  db: PrismaClient,
  channelId: number,
  api: GraphApi,
  phoneNumberId: string,
  body: CloudMessageBody,
  slot: (attempt: number) => Promise<number>,
  context: SendContext,
): Promise<Outcome> {
  const started = Date.now();
  // A held try is already late: one call, then held again.
  const within = context.attempt ? 0 : chatappEnv().BLOCKBOT_CHATAPP_RETRY_SECONDS * 1000;
  for (let attempt = 0; ; attempt++) {
    const rateMs = await slot(attempt);
    await spacing.turn(phoneNumberId, rateMs);
    const result: GraphResult<{ messages?: { id?: string }[] }> = await api.post(
      `${phoneNumberId}/messages`,
      body,
    );
    if (result.ok) return { ok: true, messageId: result.result.messages?.[0]?.id };
    if (result.code === THROUGHPUT_LIMIT_CODE)
      await plainSql(db).run(slowRate, { channelId, rateMs: slotMs, sentMs: rateMs });
    const retry = result.reason === 'rate_limited' || result.reason === 'unavailable';
    let pause = retry ? retryPause(attempt, Date.now() - started, within) : null;
    if (pause !== null && result.code === 131056) pause = Math.max(pause, PAIR_RATE_PAUSE_MS);
    if (pause !== null && Date.now() - started + pause <= within) {
      await sleep(pause);
      continue;
    }
    if (retry)
      return {
        ok: false,
        invalidToken: false,
        ...held('the Cloud API', `${body.type}: ${result.description}`, context),
      };
    return {
      ok: false,
      error: `${body.type}: ${result.description}`,
      invalidToken: result.reason === 'invalid_token',
      ...(result.code === undefined ? {} : { code: result.code }),
    };
  }
}

/** The template's body parameters: `{message}` the message's text, `{name}` the client's. */
async function templateParameters(
  db: PrismaClient,
  client: ChannelClient,
  template: WindowTemplate,
  text: string,
) {
  const needsName = template.parameters.some((p) => p.includes('{name}'));
  const name = needsName
    ? ((await db.client.findUnique({ where: { id: client.id }, select: { name: true } }))?.name ?? '')
    : '';
  // A parameter may not be empty: the API refuses the whole message.
  return template.parameters.map(
    (p) => p.replaceAll('{message}', text.trim()).replaceAll('{name}', name).trim() || '-',
  );
}

/** The slot taken with a Cloud API number's route. */
const routeSlot = (route: { waitMs: number | null; rateMs: number | null }): RateSlot | null =>
  route.waitMs === null || route.rateMs === null ? null : { waitMs: route.waitMs, rateMs: route.rateMs };

type CloudRoute = { id: number; projectId: number; groupId: string; credentials: unknown; settings: unknown };

/**
 * Sends a Cloud API message's parts in the number's pace (the first try of the first part has
 * its slot already). `onRefused` learns a refusal's code and how many parts the client got.
 */
function sendCloudParts(
  db: PrismaClient,
  channel: CloudRoute,
  sends: CloudMessageBody[],
  context: SendContext,
  firstSlot: RateSlot | null,
  onRefused?: (code: number | undefined, partsAnswered: number) => void,
): Promise<DeliveryResult> {
  const credentials = cloudCredentials(channel);
  const api = cloudApi(credentials.token);
  let slot = firstSlot;
  let answered = context.partsSent ?? 0;
  return sendInParts(sends, context, async (body) => {
    const taken = slot;
    slot = null;
    const outcome = await sendOne(
      db,
      channel.id,
      api,
      credentials.phoneNumberId,
      body,
      (attempt) => numberSlot(db, channel.id, attempt === 0 ? taken : null),
      context,
    );
    if (outcome.ok) answered++;
    else onRefused?.(outcome.code, answered);
    return graphPartOutcome(db, channel.id, 'the number', outcome);
  });
}

/**
 * Outside the window the message goes as the number's window template, whose parameters carry
 * its text flattened; what the template cannot carry (buttons, files) is said in the history.
 */
async function sendAsTemplate(
  db: PrismaClient,
  channel: CloudRoute,
  client: ChannelClient,
  message: OutgoingMessage,
  context: SendContext,
  firstSlot: RateSlot | null,
  why: string,
): Promise<DeliveryResult> {
  const template = chatappSettings(channel).windowTemplate;
  if (!template)
    return {
      delivered: false,
      error: `${why}, and the Cloud API then takes only a template message; choose the window template on the Channels tab`,
    };
  const body = renderCloudTemplate(
    client.platformId,
    template,
    await templateParameters(db, client, template, message.text),
  );
  const sent = await sendCloudParts(db, channel, [body], context, firstSlot);
  const leftOut = templateLeftOut(
    message,
    template.parameters.some((p) => p.includes('{message}')),
  );
  if (!sent.delivered || !leftOut) return sent;
  // Delivered, with a note the history shows: what of the message the client did not get.
  return { ...sent, error: `sent as the window template ${template.name}, without ${leftOut}` };
}

async function send(
  client: ChannelClient,
  message: OutgoingMessage,
  context: SendContext,
): Promise<DeliveryResult> {
  const { db } = context;
  const [channel] = await plainSql(db).run(chatappSendRoute, {
    clientId: client.id,
    stateKey: LAST_MESSAGE_KEY,
    closedKey: WINDOW_CLOSED_KEY,
    projectId: client.projectId,
    clientType: CHATAPP_CLIENT_TYPE,
    groupId: client.groupId,
    rateMs: slotMs,
  });
  if (!channel)
    return {
      delivered: false,
      error: `the chat-app number +${client.groupId} is not connected to this project`,
    };
  if (isGatewayChannel(channel)) return sendGateway(db, channel, client, message, context);
  const now = Date.now();
  if (!windowOpen(channel.lastMessageAt, channel.windowClosedAt, now))
    return sendAsTemplate(
      db,
      channel,
      client,
      message,
      context,
      routeSlot(channel),
      windowOpen(channel.lastMessageAt, null, now)
        ? '131047 the Cloud API refused a free-form message to the client since they last wrote (re-engagement): the window stays closed until they write again'
        : '131047 outside the 24-hour window: the client last wrote more than 24 hours ago (or never)',
    );
  let reengagement = null as { partsAnswered: number } | null;
  const sent = await sendCloudParts(
    db,
    channel,
    renderCloudMessage(message, client.platformId),
    context,
    routeSlot(channel),
    (code, partsAnswered) => {
      if (code === REENGAGEMENT_CODE) reengagement = { partsAnswered };
    },
  );
  if (!reengagement) return sent;
  // The API holds the window closed: every process sends this client templates until they write.
  await plainSql(db).run(closeWindow, {
    clientId: client.id,
    closedKey: WINDOW_CLOSED_KEY,
    at: new Date(now).toISOString(),
  });
  // Nothing of the message reached the client: it goes as the template instead.
  if (reengagement.partsAnswered > 0) return sent;
  return sendAsTemplate(db, channel, client, message, context, null, sent.error ?? '131047');
}

/** Who a held gateway send waits for when the gateway answered that its session is not working. */
const SESSION = "the gateway's session";

/** A gateway's 422 for a feature of its paid tier (WAHA Core sends no files). */
const PLUS_ONLY = /available only in Plus/i;

/**
 * One send through the gateway, tried again while it is unreachable or answers a 5xx, for the
 * first BLOCKBOT_CHATAPP_RETRY_SECONDS of a send's first try.
 */
async function gatewayCall(
  api: GatewayApi,
  path: string,
  body: unknown,
  context: SendContext,
): Promise<GatewayResult<{ id?: string }>> {
  const started = Date.now();
  const within = context.attempt ? 0 : chatappEnv().BLOCKBOT_CHATAPP_RETRY_SECONDS * 1000;
  for (let attempt = 0; ; attempt++) {
    const result = await api.post<{ id?: string }>(path, body);
    const pause =
      !result.ok && result.reason === 'unavailable'
        ? retryPause(attempt, Date.now() - started, within)
        : null;
    if (pause === null || Date.now() - started + pause > within) return result;
    await sleep(pause);
  }
}

async function sendGateway(
  db: PrismaClient,
  channel: { id: number; projectId: number; credentials: unknown },
  client: ChannelClient,
  message: OutgoingMessage,
  context: SendContext,
): Promise<DeliveryResult> {
  const api = gatewayApiOf(channel);
  const { session } = gatewayCredentials(channel);
  const chatId = gatewayChatId(client.platformId);
  const sent = await sendInParts(renderGatewayMessage(message), context, async (part: GatewaySend) => {
    let result =
      part.kind === 'text'
        ? await gatewayCall(api, '/api/sendText', { session, chatId, text: part.text }, context)
        : await gatewayCall(
            api,
            part.kind === 'image' ? '/api/sendImage' : '/api/sendFile',
            {
              session,
              chatId,
              file: { url: part.url, filename: part.filename, mimetype: part.mimetype },
              ...(part.caption ? { caption: part.caption } : {}),
            },
            context,
          );
    // A gateway that sends no files gets the file's address as text, with its caption.
    if (!result.ok && part.kind !== 'text' && result.status === 422 && PLUS_ONLY.test(result.description))
      result = await gatewayCall(
        api,
        '/api/sendText',
        { session, chatId, text: [part.caption, part.url].filter(Boolean).join('\n') },
        context,
      );
    if (result.ok) return { ok: true, externalId: result.result.id };
    // The session is not working (not paired, the phone offline): the message waits for it.
    if (result.reason === 'not_ready') return { ok: false, ...held(SESSION, result.description, context) };
    // Unreachable, or a 5xx, past the first seconds: the message waits for the gateway.
    if (result.reason === 'unavailable')
      return {
        ok: false,
        ...held('the gateway', `the gateway did not send it: ${result.description}`, context),
      };
    const error =
      result.reason === 'unauthorized'
        ? `the gateway refused the API key: ${result.description}`
        : `the gateway did not send it: ${result.description}`;
    await db.channel.update({
      where: { id: channel.id },
      data: { lastError: `A send failed: ${error}` },
    });
    return { ok: false, error };
  });
  return sent;
}

/**
 * A send the Cloud API or the gateway (`who`) could not take past the first seconds, or while
 * the gateway's session is not working: held (queued, tried again with growing pauses, and at
 * once when the session's webhook says it works again) within BLOCKBOT_CHATAPP_HOLD_HOURS of when
 * it was first handed over; failed after that.
 */
function held(who: string, said: string, context: SendContext): { error: string; retryAt?: Date } {
  const hours = chatappEnv().BLOCKBOT_CHATAPP_HOLD_HOURS;
  const horizon = `within ${hours} h (BLOCKBOT_CHATAPP_HOLD_HOURS)`;
  return holdOrFail(
    said,
    context,
    hours,
    who === SESSION
      ? {
          waiting: `waiting for ${SESSION} to work again (not paired, or the phone is offline)`,
          gaveUp: `${SESSION} did not work again ${horizon}`,
        }
      : {
          waiting: `${who} could not take it yet (tried again later)`,
          gaveUp: `${who} did not take it ${horizon}`,
        },
  );
}

/**
 * `check_chatapp`: asked of the project's paired gateway session (the Cloud API cannot look
 * numbers up). The answer's chat id is the messenger's own for the number.
 */
async function checkNumber(db: PrismaClient, projectId: number, phone: string) {
  const channels = await db.channel.findMany({
    where: { projectId, clientType: CHATAPP_CLIENT_TYPE, NOT: { groupId: '' } },
    orderBy: { id: 'asc' },
  });
  const gateway = channels.find(isGatewayChannel);
  if (!gateway)
    throw new DomainError(
      'invalid',
      'The Cloud API cannot look numbers up: check_chatapp needs a chat-app number paired through a WhatsApp Web session gateway.',
    );
  const { session } = gatewayCredentials(gateway);
  const digits = phoneDigits(phone);
  const answer = await gatewayApiOf(gateway).get<{ numberExists?: boolean; chatId?: string }>(
    `/api/contacts/check-exists?phone=${digits}&session=${encodeURIComponent(session)}`,
  );
  if (!answer.ok) throw new Error(`the gateway could not check +${digits}: ${answer.description}`);
  return { exists: answer.result.numberExists === true };
}

export const chatappChannel: ChannelAdapter = {
  clientType: CHATAPP_CLIENT_TYPE,
  // A gateway session that is not working holds its messages (heldForSession).
  holdsSends: true,
  send,
  async call(projectId, fn, args, context) {
    if (fn === 'check_chatapp') return checkNumber(context.db, projectId, String(args.phone ?? ''));
    throw new Error(`${fn} is not a function of the chat-app messenger`);
  },
};
