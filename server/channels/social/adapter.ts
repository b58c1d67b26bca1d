import { setTimeout as sleep } from 'node:timers/promises';
import { holdOrFail, retryPause } from '@/lib/channels/retry';
import {
  type InstagramMessage,
  renderInstagramMessage,
  renderPrivateReply,
} from '@/lib/social/instagram-render';
import { COMMENT_KEY, LAST_MESSAGE_KEY, privateReplyTo, windowRule } from '@/lib/social/instagram-window';
import type {
  ChannelAdapter,
  ChannelClient,
  DeliveryResult,
  OutgoingMessage,
  SendContext,
} from '@/server/channels/channel-adapter';
import type { PrismaClient } from '@/server/db/client-type';
import { findChannelByGroup } from '../channel-list';
import type { GraphApi } from '../meta/graph-api';
import { graphPartOutcome, sendInParts } from '../send-parts';
import { instagramApi, SOCIAL_CLIENT_TYPE, socialCredentials } from './channel-service';
import { socialEnv } from './env';
import { checkSubscription } from './subscription';

/**
 * Instagram Direct as a channel: a message is rendered within the API's limits
 * (lib/social/instagram-render) and sent by the account the client wrote to (its group_id),
 * as a response within the client's 24-hour window; an operator's reply from the inbox (a
 * message with its sender member) goes with the HUMAN_AGENT tag within 7 days; anything
 * else fails with the rule named, unsent (lib/social/instagram-window), unless the person
 * commented on the account's post: the first message then goes as the comment's one private
 * reply (text only), within 7 days of the comment. Meta's throttling (4, 17, 32, 341, 613),
 * an outage (a 5xx, code 1 or 2) or a lost connection is tried again in the process with growing
 * pauses for the first BLOCKBOT_SOCIAL_RETRY_SECONDS of a send, then held (the outbox keeps it
 * queued and hands it back later, 15 s, 30 s, … up to 30 min apart, the client's later messages
 * behind it) until BLOCKBOT_SOCIAL_HOLD_HOURS after it was queued, then fails; a held try that
 * finds the window closed fails with the rule named. A refusal is never tried again; a refused
 * token is the channel's last error.
 */

type Outcome =
  | { ok: true; messageId?: string }
  | { ok: false; error: string; invalidToken: boolean; retryAt?: Date };

async function sendOne(
  api: GraphApi,
  accountId: string,
  body: Record<string, unknown>,
  context: SendContext,
): Promise<Outcome> {
  const started = Date.now();
  // The first seconds in the process, on a send's first try only: a held try is already late.
  const within = context.attempt ? 0 : socialEnv().BLOCKBOT_SOCIAL_RETRY_SECONDS * 1000;
  for (let attempt = 0; ; attempt++) {
    const result = await api.post<{ recipient_id?: string; message_id?: string }>(
      `${accountId}/messages`,
      body,
    );
    if (result.ok) return { ok: true, messageId: result.result.message_id };
    const transient = result.reason === 'rate_limited' || result.reason === 'unavailable';
    const pause = transient ? retryPause(attempt, Date.now() - started, within) : null;
    if (pause !== null) {
      await sleep(pause);
      continue;
    }
    if (transient) return held(result.description, context);
    return { ok: false, error: result.description, invalidToken: result.reason === 'invalid_token' };
  }
}

/** Meta's trouble past the first seconds: the send held until its next try, or failed past the horizon. */
function held(error: string, context: SendContext): Outcome {
  const hours = socialEnv().BLOCKBOT_SOCIAL_HOLD_HOURS;
  const outcome = holdOrFail(error, context, hours, {
    waiting: 'Instagram could not take it yet (tried again later)',
    gaveUp: `Instagram could not take it within ${hours} hours`,
  });
  return { ok: false, invalidToken: false, ...outcome };
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
  const channel = await findChannelByGroup(db, client.projectId, SOCIAL_CLIENT_TYPE, client.groupId);
  if (!channel)
    return {
      delivered: false,
      error: `the Instagram account @${client.groupId} is not connected to this project`,
    };
  const states = await db.clientChannelState.findMany({
    where: { clientId: client.id, key: { in: [LAST_MESSAGE_KEY, COMMENT_KEY] } },
    select: { key: true, value: true },
  });
  const lastMessageAt = states.find((s) => s.key === LAST_MESSAGE_KEY)?.value;
  const now = Date.now();
  let rule = windowRule(lastMessageAt, now, false);
  if (!rule.ok) rule = windowRule(lastMessageAt, now, await byOperator(db, context.idempotencyKey));
  const { accountId, token } = socialCredentials(channel);
  const api = instagramApi(token);
  const post = async (body: Record<string, unknown>) =>
    graphPartOutcome(db, channel.id, 'the account', await sendOne(api, accountId, body, context));
  if (rule.ok) {
    const { messagingType } = rule;
    const tag = rule.messagingType === 'MESSAGE_TAG' ? { tag: rule.tag } : {};
    return sendInParts(renderInstagramMessage(message), context, (part: InstagramMessage) =>
      post({ recipient: { id: client.platformId }, messaging_type: messagingType, ...tag, message: part }),
    );
  }
  // Outside any window, a comment on the account's post may still get its one private reply.
  const commentId = privateReplyTo(states.find((s) => s.key === COMMENT_KEY)?.value, now);
  if (!commentId) return { delivered: false, error: rule.error };
  const sent = await sendInParts([renderPrivateReply(message)], context, (part) =>
    post({ recipient: { comment_id: commentId }, message: part }),
  );
  if (sent.delivered)
    await db.clientChannelState.deleteMany({ where: { clientId: client.id, key: COMMENT_KEY } });
  return sent;
}

export const socialChannel: ChannelAdapter = {
  clientType: SOCIAL_CLIENT_TYPE,
  holdsSends: true,
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
