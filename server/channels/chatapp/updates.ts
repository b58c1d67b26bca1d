import { cloudButtonsLayout } from '@/lib/chatapp/cloud-render';
import { type CloudAttachment, type CloudInbound, parseCloudItem } from '@/lib/chatapp/cloud-webhook';
import { LAST_MESSAGE_KEY, REENGAGEMENT_CODE, WINDOW_CLOSED_KEY } from '@/lib/chatapp/cloud-window';
import {
  type GatewayAttachment,
  type GatewayInbound,
  gatewayChatId,
  isGatewayStored,
  parseGatewayItem,
} from '@/lib/chatapp/gateway-webhook';
import { extensionOfType, MAX_FILE_BYTES } from '@/lib/files/file-types';
import { plainSql } from '@/server/db/raw-sql';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { logFor } from '@/server/log';
import { recordDeliveryStatus } from '../delivery-status';
import { type InboundFile, runMessage, updateDone } from '../inbound/message-event';
import type { InboundProcessor, UpdateChannel, UpdateEnd } from '../inbound/pipeline';
import type { GraphApi } from '../meta/graph-api';
import { CHATAPP_CLIENT_TYPE, cloudApi, cloudCredentials } from './channel-service';
import type { GatewayApi } from './gateway-api';
import { gatewayApiOf, gatewayCredentials } from './gateway-service';
import { closeWindow } from './sql';

const log = logFor('chatapp');

/**
 * What the Cloud API's updates do, on the channels' inbound pipeline: a client's message is
 * marked read with the typing indicator on (the bot is working), its files are downloaded
 * and stored, and it runs through the engine as the client's message, opening the client's
 * 24-hour window (their channel state); a status report moves the message's delivery status,
 * and a re-engagement failure (131047) closes the client's window until they write again.
 * A session gateway's updates (WAHA) take the same way: seen and "typing…" through the
 * gateway, files downloaded from it; it has no window. A bare number typed in answer to
 * options shown as numbered text is the option's text.
 */

type ChatappUpdate = { via: 'cloud'; item: CloudInbound } | { via: 'gateway'; item: GatewayInbound };

async function runUpdate(deps: EngineDeps, channel: UpdateChannel, update: ChatappUpdate, end: UpdateEnd) {
  if (update.via === 'gateway') return runGatewayUpdate(deps, channel, update.item, end);
  return runCloudUpdate(deps, channel, update.item, end);
}

async function runCloudUpdate(
  deps: EngineDeps,
  channel: UpdateChannel,
  update: CloudInbound,
  end: UpdateEnd,
) {
  if (update.kind === 'invalid') return end.notProcessed(update.reason);
  if (update.kind === 'ignore') return updateDone(deps, end);
  const credentials = cloudCredentials(channel);
  const api = cloudApi(credentials.token);
  const ref = { clientType: CHATAPP_CLIENT_TYPE, groupId: channel.groupId };
  if (update.kind === 'status') {
    const clientId = await recordStatus(deps, channel, update.recipient, {
      externalId: update.messageId,
      status: update.status,
      ...(update.error ? { error: update.error.text } : {}),
    });
    // A free-form message refused as re-engagement: the API holds the client's window closed.
    if (clientId !== null && update.error?.code === REENGAGEMENT_CODE)
      await plainSql(deps.db).run(closeWindow, {
        clientId,
        closedKey: WINDOW_CLOSED_KEY,
        at: new Date(update.at * 1000).toISOString(),
      });
    return updateDone(deps, end);
  }
  // Read, and "typing…" until the bot's first answer (or 25 s): not waited for, and a refusal changes nothing.
  void api
    .post(`${credentials.phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: update.messageId,
      typing_indicator: { type: 'text' },
    })
    .then((read) => {
      if (!read.ok) log.warn(`${update.messageId} was not marked read: ${read.description}`);
    });
  await runMessage(
    deps,
    channel,
    {
      client: { ...ref, platformId: update.from, ...(update.name ? { name: update.name } : {}) },
      text: update.text,
      files: update.attachments.map((file) => chatappFile(file, file.mediaId, () => cloudFile(api, file))),
      numbered: (buttons) => cloudButtonsLayout(buttons) === 'numbered_text',
      channelState: { [LAST_MESSAGE_KEY]: new Date(update.sentAt * 1000).toISOString() },
    },
    end,
  );
}

async function runGatewayUpdate(
  deps: EngineDeps,
  channel: UpdateChannel,
  update: GatewayInbound,
  end: UpdateEnd,
) {
  if (update.kind === 'invalid') return end.notProcessed(update.reason);
  if (update.kind === 'ignore') return updateDone(deps, end);
  const ref = { clientType: CHATAPP_CLIENT_TYPE, groupId: channel.groupId };
  if (update.kind === 'status') {
    await recordStatus(deps, channel, update.recipient, {
      externalId: update.messageId,
      status: update.status,
      ...(update.error ? { error: update.error } : {}),
    });
    return updateDone(deps, end);
  }
  const api = gatewayApiOf(channel);
  const { session } = gatewayCredentials(channel);
  const chatId = gatewayChatId(update.from);
  // Seen, and "typing…" while the bot works: not waited for, and a refusal changes nothing.
  void Promise.all([
    api.post('/api/sendSeen', { session, chatId, messageIds: [update.messageId] }),
    api.post('/api/startTyping', { session, chatId }),
  ]).then((answers) => {
    for (const answer of answers)
      if (!answer.ok) log.warn(`the gateway did not mark ${update.messageId} seen: ${answer.description}`);
  });
  await runMessage(
    deps,
    channel,
    {
      client: { ...ref, platformId: update.from, ...(update.name ? { name: update.name } : {}) },
      text: update.text,
      files: update.attachments.map((file) => chatappFile(file, file.url, () => gatewayFile(api, file))),
      numbered: () => true,
    },
    end,
  );
}

/** Moves the reported message's status; answers the client's id, null for a number never written to. */
async function recordStatus(
  deps: EngineDeps,
  channel: UpdateChannel,
  platformId: string,
  report: Omit<Parameters<typeof recordDeliveryStatus>[1], 'projectId' | 'clientId'>,
): Promise<number | null> {
  const client = await deps.db.client.findFirst({
    where: {
      projectId: channel.projectId,
      clientType: CHATAPP_CLIENT_TYPE,
      groupId: channel.groupId,
      platformId,
    },
    select: { id: true },
  });
  if (!client) return null;
  await recordDeliveryStatus(deps, { projectId: channel.projectId, clientId: client.id, ...report });
  return client.id;
}

type Downloaded = { bytes: Uint8Array; mime?: string };

/**
 * A message's file, downloaded while the update is processed (`download`: through the Graph
 * API, whose address needs the token and expires in minutes, or from the gateway); the
 * messenger's id of the file (`key`) is its upload key.
 */
function chatappFile(
  file: CloudAttachment | GatewayAttachment,
  key: string,
  download: () => Promise<Downloaded>,
): InboundFile {
  return {
    uploadKey: `chatapp:${key}`,
    async download() {
      const got = await download();
      return {
        bytes: got.bytes,
        mimeType: got.mime ?? file.mime,
        name: file.name ?? `${file.type}-${key.replace(/\W/g, '').slice(-12)}${extensionOfType(file.mime)}`,
      };
    },
  };
}

async function cloudFile(api: GraphApi, file: CloudAttachment): Promise<Downloaded> {
  const media = await api.get<{ url?: string; mime_type?: string }>(file.mediaId);
  if (!media.ok || !media.result.url)
    throw new Error(
      `the file ${file.mediaId} could not be read: ${media.ok ? 'no address' : media.description}`,
    );
  const got = await api.download(media.result.url, MAX_FILE_BYTES);
  if (!got.ok) throw new Error(`the file ${file.mediaId} could not be downloaded: ${got.description}`);
  return { bytes: got.result.bytes, ...(media.result.mime_type ? { mime: media.result.mime_type } : {}) };
}

async function gatewayFile(api: GatewayApi, file: GatewayAttachment): Promise<Downloaded> {
  const got = await api.download(file.url, MAX_FILE_BYTES);
  if (!got.ok)
    throw new Error(`the file ${file.url} could not be downloaded from the gateway: ${got.description}`);
  return { bytes: got.result.bytes };
}

export const chatappInbound: InboundProcessor<ChatappUpdate> = {
  kind: 'chatapp',
  parse: (payload) =>
    isGatewayStored(payload)
      ? { via: 'gateway', item: parseGatewayItem(payload) }
      : { via: 'cloud', item: parseCloudItem(payload) },
  run: runUpdate,
};
