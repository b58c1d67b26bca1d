import { holdOrFail } from '@/lib/channels/retry';
import { renderViberMessage, senderName, type ViberMessage, viberButtonsLayout } from '@/lib/viber/render';
import type {
  ChannelAdapter,
  ChannelClient,
  DeliveryResult,
  OutgoingMessage,
  SendContext,
} from '@/server/channels/channel-adapter';
import type { PrismaClient } from '@/server/db/client-type';
import { SafeHttpError, safeFetch } from '@/server/http';
import { findChannelByGroup } from '../channel-list';
import { type PartOutcome, sendInParts } from '../send-parts';
import { VIBER_CLIENT_TYPE, type ViberCredentials, viberCredentials } from './channel-service';
import { viberEnv } from './env';
import { readSubscribed, SUBSCRIBED_KEY, writeState } from './subscription';
import { type ViberApi, viberApi } from './viber-api';
import { takeWelcome } from './welcome';

/**
 * Viber as a channel: a message is rendered within the REST Bot API's limits (lib/viber/render)
 * and sent by `send_message` from the bot the client wrote to (its group_id), with the bot's
 * name (28 characters at most) and icon as the sender; each part's `message_token` is the
 * message's id for the delivered / seen / failed callbacks. A person who unsubscribed (or
 * opened the chat without subscribing) gets nothing: the send fails at once with why, unsent
 * (Viber would refuse it: 6); a person who opened the chat just now gets the bot's first answer
 * as the welcome message (./welcome.ts). Viber's rate limit (12), a 5xx or no answer holds
 * the send (the outbox hands it back later, 15 s, 30 s, … up to 30 min apart) until
 * BLOCKBOT_VIBER_HOLD_HOURS after it was queued, then it fails; a refused token is the
 * channel's last error.
 */

/** The size in bytes Viber requires of a video or a file, from the server that serves it. */
async function sizeOf(url: string): Promise<number | string> {
  try {
    const res = await safeFetch(url, { headers: { range: 'bytes=0-0' }, maxBytes: 60 * 1024 * 1024 });
    const total = /\/(\d+)\s*$/.exec(res.headers['content-range'] ?? '')?.[1];
    if (res.status === 206 && total) return Number(total);
    if (res.status === 200) return res.bytes.byteLength;
    return `the file ${url} could not be read: HTTP ${res.status}`;
  } catch (error) {
    if (!(error instanceof SafeHttpError)) throw error;
    return `the file ${url} could not be read: ${error.message}`;
  }
}

async function withSizes(parts: ViberMessage[]): Promise<ViberMessage[] | string> {
  const sized: ViberMessage[] = [];
  for (const part of parts) {
    if (part.type !== 'video' && part.type !== 'file') {
      sized.push(part);
      continue;
    }
    const size = await sizeOf(part.media);
    if (typeof size === 'string') return size;
    sized.push({ ...part, size });
  }
  return sized;
}

const sender = (credentials: ViberCredentials) => ({
  name: senderName(credentials.name),
  ...(credentials.avatar ? { avatar: credentials.avatar } : {}),
});

async function sendPart(
  db: PrismaClient,
  api: ViberApi,
  channelId: number,
  client: ChannelClient,
  body: object,
  context: SendContext,
): Promise<PartOutcome> {
  const sent = await api.call<{ message_token?: string }>('send_message', body);
  if (sent.ok) return { ok: true, externalId: sent.result.message_token };
  if (sent.reason === 'rate_limited' || sent.reason === 'unavailable') {
    const hours = viberEnv().BLOCKBOT_VIBER_HOLD_HOURS;
    return {
      ok: false,
      ...holdOrFail(sent.description, context, hours, {
        waiting: 'Viber could not take it yet (tried again later)',
        gaveUp: `Viber could not take it within ${hours} hours`,
      }),
    };
  }
  if (sent.reason === 'not_subscribed') {
    await writeState(db, client.id, SUBSCRIBED_KEY, 'no');
    return {
      ok: false,
      error: `Viber refused it: the person is not subscribed to the bot (${sent.description}); they receive messages again once they write to it`,
    };
  }
  if (sent.reason === 'invalid_token')
    await db.channel.update({
      where: { id: channelId },
      data: {
        lastError: `Viber refused the token: ${sent.description}. Connect the bot again with its current token.`,
      },
    });
  return { ok: false, error: `Viber refused it: ${sent.description}` };
}

async function send(
  client: ChannelClient,
  message: OutgoingMessage,
  context: SendContext,
): Promise<DeliveryResult> {
  const { db } = context;
  const channel = await findChannelByGroup(db, client.projectId, VIBER_CLIENT_TYPE, client.groupId);
  if (!channel)
    return { delivered: false, error: `the Viber bot ${client.groupId} is not connected to this project` };
  const credentials = viberCredentials(channel);
  const parts = renderViberMessage(message);
  if (!parts.length) return { delivered: true };
  if ((await readSubscribed(db, client.id)) === 'no') {
    const welcome = takeWelcome(channel.id, client.platformId);
    if (!welcome)
      return {
        delivered: false,
        error:
          'not sent: the person is not subscribed to the Viber bot (they unsubscribed, or opened the chat without writing); Viber delivers nothing to them until they write to it',
      };
    // One message only: the bot's answer's last part, its text and keyboard.
    welcome.give({ sender: sender(credentials), min_api_version: 1, ...parts[parts.length - 1] });
    return { delivered: true };
  }
  const sized = await withSizes(parts);
  if (typeof sized === 'string') return { delivered: false, error: sized };
  const api = viberApi(credentials.token);
  return sendInParts(sized, context, (part) =>
    sendPart(
      db,
      api,
      channel.id,
      client,
      { receiver: client.platformId, min_api_version: 1, sender: sender(credentials), ...part },
      context,
    ),
  );
}

export const viberChannel: ChannelAdapter = {
  clientType: VIBER_CLIENT_TYPE,
  holdsSends: true,
  send,
  async call(_projectId, fn) {
    throw new Error(`${fn} is not a function of Viber`);
  },
};

/** Whether the bot's last options went as numbered text (a typed number then chooses one). */
export const viberNumbered = (buttons: Parameters<typeof viberButtonsLayout>[0]) =>
  viberButtonsLayout(buttons) === 'numbered_text';
