import { setTimeout as sleep } from 'node:timers/promises';
import { retryPause } from '@/lib/channels/retry';
import { type InstagramMessage, renderInstagramMessage } from '@/lib/social/instagram-render';
import { LAST_MESSAGE_KEY, windowRule } from '@/lib/social/instagram-window';
import type {
  ChannelAdapter,
  ChannelClient,
  DeliveryResult,
  OutgoingMessage,
  SendContext,
} from '@/server/channels/channel-adapter';
import { getEnv } from '@/server/config/env';
import type { PrismaClient } from '@/server/db/client-type';
import type { GraphApi } from '../chatapp/graph-api';
import { sendInParts } from '../send-parts';
import { instagramApi, SOCIAL_CLIENT_TYPE, socialCredentials } from './channel-service';
import { checkSubscription } from './subscription';

/**
 * Instagram Direct as a channel: a message is rendered within the API's limits
 * (lib/social/instagram-render) and sent by the account the client wrote to (its group_id),
 * as a response within the client's 24-hour window; an operator's reply from the inbox (a
 * message with its sender member) goes with the HUMAN_AGENT tag within 7 days; anything
 * else fails with the rule named, unsent (lib/social/instagram-window). A rate limit (4, 613),
 * a 5xx or a lost connection is tried again with growing pauses within
 * BLOCKBOT_SOCIAL_RETRY_SECONDS; a refusal never is; a refused token is the channel's last error.
 */

type Outcome = { ok: true; messageId?: string } | { ok: false; error: string; invalidToken: boolean };

async function sendOne(api: GraphApi, accountId: string, body: Record<string, unknown>): Promise<Outcome> {
  const started = Date.now();
  const within = getEnv().BLOCKBOT_SOCIAL_RETRY_SECONDS * 1000;
  for (let attempt = 0; ; attempt++) {
    const result = await api.post<{ recipient_id?: string; message_id?: string }>(
      `${accountId}/messages`,
      body,
    );
    if (result.ok) return { ok: true, messageId: result.result.message_id };
    const retry = result.reason === 'rate_limited' || result.reason === 'unavailable';
    const pause = retry ? retryPause(attempt, Date.now() - started, within) : null;
    if (pause !== null) {
      await sleep(pause);
      continue;
    }
    return { ok: false, error: result.description, invalidToken: result.reason === 'invalid_token' };
  }
}

/** Whether the message being sent is an operator's reply (the outbox's key names the message). */
async function byOperator(db: PrismaClient, idempotencyKey: string | undefined): Promise<boolean> {
  const id = /^message-(\d+)$/.exec(idempotencyKey ?? '')?.[1];
  if (!id) return false;
  const row = await db.message.findUnique({ where: { id: BigInt(id) }, select: { senderMemberId: true } });
  return row?.senderMemberId != null;
}

async function send(
  client: ChannelClient,
  message: OutgoingMessage,
  context: SendContext,
): Promise<DeliveryResult> {
  const { db } = context;
  const channel = await db.channel.findFirst({
    where: { projectId: client.projectId, clientType: SOCIAL_CLIENT_TYPE, groupId: client.groupId },
    orderBy: { id: 'asc' },
  });
  if (!channel)
    return {
      delivered: false,
      error: `the Instagram account @${client.groupId} is not connected to this project`,
    };
  const last = await db.clientChannelState.findUnique({
    where: { clientId_key: { clientId: client.id, key: LAST_MESSAGE_KEY } },
    select: { value: true },
  });
  const now = Date.now();
  let rule = windowRule(last?.value, now, false);
  if (!rule.ok) rule = windowRule(last?.value, now, await byOperator(db, context.idempotencyKey));
  if (!rule.ok) return { delivered: false, error: rule.error };
  const { accountId, token } = socialCredentials(channel);
  const api = instagramApi(token);
  const sends: InstagramMessage[] = renderInstagramMessage(message);
  return sendInParts(sends, context, async (part) => {
    const outcome = await sendOne(api, accountId, {
      recipient: { id: client.platformId },
      messaging_type: rule.messagingType,
      ...(rule.messagingType === 'MESSAGE_TAG' ? { tag: rule.tag } : {}),
      message: part,
    });
    if (!outcome.ok && outcome.invalidToken)
      await db.channel.update({
        where: { id: channel.id },
        data: {
          lastError: `The Graph API refused the access token: ${outcome.error}. Connect the account again with a valid token.`,
        },
      });
    return outcome.ok ? { ok: true, externalId: outcome.messageId } : outcome;
  });
}

export const socialChannel: ChannelAdapter = {
  clientType: SOCIAL_CLIENT_TYPE,
  send,
  async call(projectId, fn, args, context) {
    if (fn === 'check_social_subscription') {
      // From the API: {user_name, login}; from a formula: {args: [user_name, login?], clientId}.
      const list = Array.isArray(args.args) ? args.args : [args.user_name, args.login];
      return checkSubscription(context.db, projectId, {
        userName: String(list[0] ?? ''),
        login: list[1] == null ? null : String(list[1]),
        clientId: typeof args.clientId === 'number' ? args.clientId : null,
      });
    }
    throw new Error(`${fn} is not a function of the social network`);
  },
};
