import { setTimeout as sleep } from 'node:timers/promises';
import { retryPause } from '@/lib/channels/retry';
import { type CloudMessageBody, renderCloudMessage, renderCloudTemplate } from '@/lib/chatapp/cloud-render';
import { LAST_MESSAGE_KEY, windowOpen } from '@/lib/chatapp/cloud-window';
import type {
  ChannelAdapter,
  ChannelClient,
  DeliveryResult,
  OutgoingMessage,
  SendContext,
} from '@/server/channels/channel-adapter';
import { getEnv } from '@/server/config/env';
import { chatappSendRoute } from '@/server/db/chatapp-sql';
import type { PrismaClient } from '@/server/db/client-type';
import { plainSql } from '@/server/db/raw-sql';
import { DomainError } from '@/server/errors';
import {
  CHATAPP_CLIENT_TYPE,
  chatappSettings,
  cloudCredentials,
  type WindowTemplate,
} from './channel-service';
import { type GraphApi, type GraphResult, graphApi } from './graph-api';
import { createSendSpacing } from './send-spacing';

/**
 * The chat-app messenger's Cloud API numbers as a channel: a message is rendered within the
 * API's limits (lib/chatapp/cloud-render) and sent by the number the client wrote to (its
 * group_id). Outside the client's 24-hour window the number's window template is sent
 * instead, or the message fails with why. Sends of one number are spaced to its throughput;
 * a rate limit (130429, 131056), a 5xx or a lost connection is tried again with growing pauses
 * within BLOCKBOT_CHATAPP_RETRY_SECONDS; a refusal (131026, 131047, bad parameters) never is.
 */

/**
 * The Cloud API's default throughput of a number is 80 messages a second. This process sends
 * at most 90 % of it, one send at a time apart, spaced from when the last one really left (a
 * stalled event loop must not let sends planned apart leave together), as requests reach the
 * API closer together than they left.
 */
const spacing = createSendSpacing(1000 / (80 * 0.9));
/** The pair rate limit asks for about 6 s between messages to one user once a burst was spent. */
const PAIR_RATE_PAUSE_MS = 6000;

/**
 * For the benchmark against a fake Cloud API without limits (bench/chatapp.bench.ts), so it
 * measures the channel rather than the number's throughput; the app never calls it.
 */
export function setChatappThroughput(perSecond: number): void {
  spacing.setInterval(1000 / perSecond);
}

type Outcome = { ok: true; messageId?: string } | { ok: false; error: string; invalidToken: boolean };

/** One message to the API, in the number's pace, tried again while that can help. */
async function sendOne(api: GraphApi, phoneNumberId: string, body: CloudMessageBody): Promise<Outcome> {
  const started = Date.now();
  const within = getEnv().BLOCKBOT_CHATAPP_RETRY_SECONDS * 1000;
  for (let attempt = 0; ; attempt++) {
    await spacing.turn(phoneNumberId);
    const result: GraphResult<{ messages?: { id?: string }[] }> = await api.post(
      `${phoneNumberId}/messages`,
      body,
    );
    if (result.ok) return { ok: true, messageId: result.result.messages?.[0]?.id };
    const retry = result.reason === 'rate_limited' || result.reason === 'unavailable';
    let pause = retry ? retryPause(attempt, Date.now() - started, within) : null;
    if (pause !== null && result.code === 131056) pause = Math.max(pause, PAIR_RATE_PAUSE_MS);
    if (pause !== null && Date.now() - started + pause <= within) {
      await sleep(pause);
      continue;
    }
    return {
      ok: false,
      error: `${body.type}: ${result.description}`,
      invalidToken: result.reason === 'invalid_token',
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

async function send(
  client: ChannelClient,
  message: OutgoingMessage,
  context: SendContext,
): Promise<DeliveryResult> {
  const { db } = context;
  const [channel] = await plainSql(db).run(chatappSendRoute, {
    clientId: client.id,
    stateKey: LAST_MESSAGE_KEY,
    projectId: client.projectId,
    clientType: CHATAPP_CLIENT_TYPE,
    groupId: client.groupId,
  });
  if (!channel)
    return {
      delivered: false,
      error: `the chat-app number +${client.groupId} is not connected to this project`,
    };
  const credentials = cloudCredentials(channel);
  let sends: CloudMessageBody[];
  if (windowOpen(channel.lastMessageAt, Date.now())) sends = renderCloudMessage(message, client.platformId);
  else {
    const template = chatappSettings(channel).windowTemplate;
    if (!template)
      return {
        delivered: false,
        error:
          '131047 outside the 24-hour window: the client last wrote more than 24 hours ago (or never), and the Cloud API then takes only a template message; choose the window template on the Channels tab',
      };
    sends = [
      renderCloudTemplate(
        client.platformId,
        template,
        await templateParameters(db, client, template, message.text),
      ),
    ];
  }
  const api = graphApi(credentials.token);
  const from = Math.min(context.partsSent ?? 0, sends.length);
  let externalId: string | undefined;
  for (let i = from; i < sends.length; i++) {
    const outcome = await sendOne(api, credentials.phoneNumberId, sends[i]);
    if (!outcome.ok) {
      if (outcome.invalidToken)
        await db.channel.update({
          where: { id: channel.id },
          data: {
            lastError: `The Cloud API refused the access token: ${outcome.error}. Connect the number again with a valid token.`,
          },
        });
      return { delivered: false, error: outcome.error };
    }
    externalId = outcome.messageId;
    if (i < sends.length - 1) await context.onPartSent?.(i + 1);
  }
  return { delivered: true, ...(externalId ? { externalId } : {}) };
}

export const chatappChannel: ChannelAdapter = {
  clientType: CHATAPP_CLIENT_TYPE,
  send,
  async call(_projectId, fn) {
    if (fn === 'check_chatapp')
      throw new DomainError(
        'invalid',
        'The Cloud API cannot look numbers up: check_chatapp needs a chat-app number connected through a WhatsApp Web session gateway.',
      );
    throw new Error(`${fn} is not a function of the chat-app messenger`);
  },
};
