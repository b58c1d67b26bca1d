import type { Attachment } from '@/lib/schema';
import {
  BUSINESS_CONNECTION_VARIABLE,
  parseUpdate,
  type TgBusinessConnectionEvent,
  type TgInbound,
  type TgInboundAttachment,
  type TgMessageEvent,
} from '@/lib/tg/inbound';
import type { Db } from '@/server/db/client-type';
import { getEngineDeps } from '@/server/engine/engine';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { handleEvent } from '@/server/engine/handle-event';
import { defineJob, enqueueMany } from '@/server/jobs/jobs';
import { channelBot } from './channel-service';

/**
 * Accepted updates (webhook or getUpdates) are stored first, deduplicated by update_id, and
 * each is processed by a job: the webhook answers at once, and an update whose job died is
 * run again by pg-boss. Updates of one chat run one at a time, in order.
 */

/** How stale the channel's "last update received" may be. */
const LAST_UPDATE_EVERY_MS = 5000;

interface UpdateJobData {
  /** TgUpdate.id, a bigint as text. */
  updateRowId: string;
  /** `<channel>:<chat>`: updates of one chat are processed one at a time. */
  chat: string;
}

export interface AcceptedUpdate {
  updateId: number;
  payload: object;
  inbound: TgInbound;
}

/** The chat an update belongs to, for ordering; '' for updates of no chat. */
function chatOf(inbound: TgInbound): string {
  if (inbound.kind === 'message') return String(inbound.chatId);
  if (inbound.kind === 'business_connection') return String(inbound.userChatId);
  return '';
}

/**
 * Stores the updates not seen before and queues a job for each one not yet processed (a
 * repeat of one whose job was lost gets a new job; the singleton key keeps it to one).
 */
export async function storeUpdates(db: Db, channelId: number, updates: AcceptedUpdate[]): Promise<void> {
  if (!updates.length) return;
  await db.tgUpdate.createMany({
    data: updates.map((u) => ({ channelId, updateId: BigInt(u.updateId), payload: u.payload })),
    skipDuplicates: true,
  });
  const pending = await db.tgUpdate.findMany({
    where: { channelId, updateId: { in: updates.map((u) => BigInt(u.updateId)) }, processedAt: null },
    select: { id: true, updateId: true },
  });
  // Every update of a busy bot would queue on this one row's lock: once every few seconds is
  // what the Channels tab needs.
  const now = new Date();
  await db.channel.updateMany({
    where: {
      id: channelId,
      OR: [{ lastUpdateAt: null }, { lastUpdateAt: { lt: new Date(now.getTime() - LAST_UPDATE_EVERY_MS) } }],
    },
    data: { lastUpdateAt: now },
  });
  const chats = new Map(updates.map((u) => [String(u.updateId), chatOf(u.inbound)]));
  await enqueueMany(
    tgUpdateJob,
    pending.map((row) => ({
      data: { updateRowId: String(row.id), chat: `${channelId}:${chats.get(String(row.updateId)) ?? ''}` },
      singletonKey: `tg-update-${row.id}`,
    })),
  );
}

/** A file of the messenger is named by its id: a download URL would carry the bot's token. */
const toAttachment = (a: TgInboundAttachment): Attachment => ({ type: a.type, url: `tg-file:${a.fileId}` });

/**
 * A client writing through a business account gets the connection id, so every reply (and any
 * later send) goes through it; the same person writing to the bot directly clears it. Read
 * first so that ordinary chats pay no variable write.
 */
async function businessVariable(
  deps: EngineDeps,
  channel: { projectId: number; groupId: string },
  inbound: TgMessageEvent,
): Promise<Record<string, string>> {
  const id = inbound.businessConnectionId;
  if (id) return { [`client.${BUSINESS_CONNECTION_VARIABLE}`]: id };
  const kept = await deps.db.clientVariable.findFirst({
    where: {
      name: BUSINESS_CONNECTION_VARIABLE,
      value: { not: '' },
      client: {
        projectId: channel.projectId,
        clientType: inbound.client.clientType,
        groupId: channel.groupId,
        platformId: inbound.client.platformId,
      },
    },
    select: { value: true },
  });
  return kept ? { [`client.${BUSINESS_CONNECTION_VARIABLE}`]: '' } : {};
}

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

/** Runs one stored update through the engine; a pressed button is always answered. */
export async function processUpdate(deps: EngineDeps, updateRowId: bigint): Promise<void> {
  const row = await deps.db.tgUpdate.findUnique({ where: { id: updateRowId }, include: { channel: true } });
  if (!row || row.processedAt) return;
  const { channel } = row;
  const inbound = parseUpdate(row.payload, { botUsername: channel.groupId });
  try {
    if (inbound.kind === 'message')
      await handleEvent(
        deps,
        channel.projectId,
        {
          ref: {
            clientType: inbound.client.clientType,
            groupId: channel.groupId,
            platformId: inbound.client.platformId,
            name: inbound.client.name,
          },
        },
        {
          type: 'message',
          text: inbound.text,
          attachments: inbound.attachments.map(toAttachment),
          ...(inbound.callbackQueryId ? { callbackQueryId: inbound.callbackQueryId } : {}),
          variables: { ...eventVariables(inbound), ...(await businessVariable(deps, channel, inbound)) },
        },
      );
    else if (inbound.kind === 'business_connection') await recordConnection(deps, channel.id, inbound);
  } catch (error) {
    await deps.db.tgUpdate.update({ where: { id: row.id }, data: { error: (error as Error).message } });
    throw error;
  }
  const queryId =
    inbound.kind === 'message' || inbound.kind === 'ignore' ? inbound.callbackQueryId : undefined;
  // The flow may have answered it already (tg_callback_url_open); then this one is refused, harmlessly.
  if (queryId) await channelBot(channel).call((api) => api.answerCallbackQuery(queryId));
  await deps.db.tgUpdate.update({ where: { id: row.id }, data: { processedAt: new Date(), error: null } });
}

export const tgUpdateJob = defineJob<UpdateJobData>({
  name: 'tg.update',
  policy: 'stately',
  batchSize: 10,
  groups: { of: (data) => data.chat, perGroup: 1, workers: 4 },
  async handle(data) {
    await processUpdate(await getEngineDeps(), BigInt(data.updateRowId));
  },
});
