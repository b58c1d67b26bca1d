import type { Attachment } from '@/lib/schema';
import {
  BUSINESS_CONNECTION_KEY,
  parseUpdate,
  TG_CLIENT_TYPE,
  type TgBusinessConnectionEvent,
  type TgInbound,
  type TgInboundAttachment,
  type TgMembershipEvent,
  type TgMessageEvent,
} from '@/lib/tg/inbound';
import type { Db } from '@/server/db/client-type';
import { plainSql } from '@/server/db/raw-sql';
import type { EngineDeps } from '@/server/engine/engine-deps';
import type { LogEntry } from '@/server/engine/events';
import { type ClaimedAhead, type EventTarget, handleEvent } from '@/server/engine/handle-event';
import { logFor } from '@/server/log';
import {
  type InboundProcessor,
  storeUpdates as storeChannelUpdates,
  type UpdateChannel,
  type UpdateEnd,
  type WebhookCheck,
} from '../inbound/pipeline';
import { channelBot } from './channel-service';
import { tgFileUrl } from './files';
import { answersCallbacksItself } from './sql';

const log = logFor('tg');

/**
 * The tg messenger's updates on the channels' inbound pipeline (server/channels/inbound/):
 * stored once by update_id, each chat's processed in update_id order.
 */

export interface AcceptedUpdate {
  updateId: number;
  payload: object;
  inbound: TgInbound;
}

/** The chat an update belongs to, for ordering; '' for updates of no chat. */
function chatOf(inbound: TgInbound): string {
  if (inbound.kind === 'message') return String(inbound.chatId);
  if (inbound.kind === 'business_connection') return String(inbound.userChatId);
  if (inbound.kind === 'membership') return String(inbound.chatId);
  return '';
}

/**
 * Stores a bot's updates not seen before and starts processing them (see the pipeline's
 * storeUpdates); `webhook`: the secret and username the webhook checked the request against.
 */
export function storeUpdates(
  deps: EngineDeps,
  channelId: number,
  updates: AcceptedUpdate[],
  webhook?: WebhookCheck,
): Promise<boolean> {
  return storeChannelUpdates(
    deps,
    tgInbound,
    channelId,
    updates.map((u) => ({
      externalId: String(u.updateId),
      order: u.updateId,
      chat: chatOf(u.inbound),
      payload: u.payload,
      parsed: u.inbound,
    })),
    webhook,
  );
}

/** A file of the messenger, through our signed route: its download URL would carry the bot's token. */
const toAttachment = (channelId: number, a: TgInboundAttachment): Attachment => ({
  type: a.type,
  url: tgFileUrl(channelId, 'file', a.fileId),
});

/**
 * A client writing through a business account gets the connection id in its channel state, so
 * every reply (and any later send) goes through it; the same person writing to the bot
 * directly removes it (a probe of the state's key that finds nothing in ordinary chats).
 */
const businessState = (inbound: TgMessageEvent) => ({
  [BUSINESS_CONNECTION_KEY]: inbound.businessConnectionId ?? null,
});

/**
 * What the message sets before routing: `/start <payload>` (a t.me/<bot>?start= link) keeps the
 * payload in `start_payload`; the client's own shared contact is `client.phone`; the username
 * is `client.username`.
 */
function eventVariables(inbound: TgMessageEvent): Record<string, string> {
  return {
    ...(inbound.command?.name === 'start' ? { start_payload: inbound.command.payload } : {}),
    ...(inbound.phone ? { 'client.phone': inbound.phone } : {}),
    ...(inbound.client.username ? { 'client.username': inbound.client.username } : {}),
  };
}

/** The connection's state, kept so a disabled one's sends fail with a clear error. */
async function recordConnection(deps: EngineDeps, channelId: number, c: TgBusinessConnectionEvent) {
  const state = {
    userId: BigInt(c.userId),
    userChatId: BigInt(c.userChatId),
    enabled: c.enabled,
    canReply: c.canReply,
  };
  await deps.db.tgBusinessConnection.upsert({
    where: { channelId_connectionId: { channelId, connectionId: c.connectionId } },
    create: { channelId, connectionId: c.connectionId, ...state },
    update: state,
  });
}

/**
 * A client who blocked the bot (or removed it from their group) gets no broadcast; one who
 * unblocked it (or added it back) gets them again. A chat the bot never talked to has no client
 * yet and needs none: its first message creates it, subscribed.
 */
async function followMembership(db: Db, channel: UpdateChannel, m: TgMembershipEvent): Promise<void> {
  await db.client.updateMany({
    where: {
      projectId: channel.projectId,
      clientType: TG_CLIENT_TYPE,
      groupId: channel.groupId,
      platformId: String(m.chatId),
    },
    data: { subscribed: m.member },
  });
}

/** The client a message's event is for. */
function messageTarget(inbound: TgMessageEvent, channel: { id: number; groupId: string }): EventTarget {
  return {
    ref: {
      clientType: inbound.client.clientType,
      groupId: channel.groupId,
      platformId: inbound.client.platformId,
      name: inbound.client.name,
      // Stored only when the client is created; fetched from the messenger when opened.
      ...(inbound.chatType === 'private'
        ? { avatar: tgFileUrl(channel.id, 'avatar', inbound.client.platformId) }
        : {}),
    },
  };
}

/**
 * Runs an update this process holds for processing; a pressed button is always answered. A
 * message's event marks the update processed in its own final write, so an update is processed
 * exactly when its event is stored.
 */
async function runUpdate(
  deps: EngineDeps,
  channel: UpdateChannel,
  inbound: TgInbound,
  { done, stored, notProcessed }: UpdateEnd,
  claimedAhead?: ClaimedAhead,
): Promise<void> {
  const sql = plainSql(deps.db);
  const queryId =
    inbound.kind === 'message' || inbound.kind === 'ignore' ? inbound.callbackQueryId : undefined;
  // A pressed button is answered before its flow runs, so its spinner stops at once and no paced
  // send or 429 pause makes the answer too late; the request leaves while the flow runs. A bot
  // that may answer with a link itself (tg_callback_url_open) gets its one answer after the flow
  // instead, still before the flow's messages are sent (see answerAfterFlow).
  const afterFlow =
    queryId !== undefined &&
    inbound.kind === 'message' &&
    (await sql.run(answersCallbacksItself, { projectId: channel.projectId }))[0]?.itself === true;
  const answered = queryId && !afterFlow ? answerCallback(channel, queryId) : undefined;
  try {
    if (inbound.kind === 'message') {
      await handleEvent(
        deps,
        channel.projectId,
        // As the update's store claimed it, or made now.
        claimedAhead?.target ?? messageTarget(inbound, channel),
        {
          type: 'message',
          text: inbound.text,
          attachments: inbound.attachments.map((a) => toAttachment(channel.id, a)),
          ...(inbound.callbackQueryId ? { callbackQueryId: inbound.callbackQueryId } : {}),
          channelState: businessState(inbound),
          variables: eventVariables(inbound),
        },
        {
          alsoWrite: done,
          async afterStore(log) {
            if (afterFlow && queryId) await answerAfterFlow(channel, queryId, log);
            await stored();
          },
          ...(claimedAhead ? { claimedAhead } : {}),
        },
      );
    } else if (inbound.kind === 'invalid') {
      await notProcessed(inbound.reason, `update ${inbound.updateId}: ${inbound.reason}`);
    } else {
      if (inbound.kind === 'business_connection') await recordConnection(deps, channel.id, inbound);
      if (inbound.kind === 'membership') await followMembership(deps.db, channel, inbound);
      await sql.run(done.statement, done.params);
    }
  } finally {
    await answered;
  }
}

/** answerCallbackQuery without text; a refusal (too late, answered already) is only logged. */
async function answerCallback(channel: UpdateChannel, queryId: string): Promise<void> {
  try {
    const result = await channelBot(channel).call((api) => api.answerCallbackQuery(queryId));
    if (!result.ok) log.warn(`the button press ${queryId} was not answered: ${result.description}`);
  } catch (error) {
    log.error(`the button press ${queryId} was not answered: ${(error as Error).message}`);
  }
}

/**
 * The answer of a press whose flow may answer it with a link: the Bot API takes one answer per
 * press, so a flow that called tg_callback_url_open for it has given the answer, and any other
 * press is answered now, once the flow ran and before its messages are sent.
 */
function answerAfterFlow(channel: UpdateChannel, queryId: string, log: readonly LogEntry[]): Promise<void> {
  const answeredByFlow = log.some(
    (e) =>
      e.kind === 'function' &&
      e.data.name === 'tg_callback_url_open' &&
      Array.isArray(e.data.args) &&
      e.data.args[0] === queryId,
  );
  return answeredByFlow ? Promise.resolve() : answerCallback(channel, queryId);
}

/** The tg messenger's updates, as the inbound pipeline processes them. */
export const tgInbound: InboundProcessor<TgInbound> = {
  kind: 'tg',
  parse: (payload, channel) => parseUpdate(payload, { botUsername: channel.groupId }),
  // A pressed button's update reads its project's setting before its event (runUpdate).
  eventTarget: (inbound, channel) =>
    inbound.kind === 'message' && !inbound.callbackQueryId ? messageTarget(inbound, channel) : undefined,
  run: runUpdate,
};
