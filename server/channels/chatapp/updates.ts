import { type CloudAttachment, type CloudInbound, parseCloudItem } from '@/lib/chatapp/cloud-webhook';
import { LAST_MESSAGE_KEY } from '@/lib/chatapp/cloud-window';
import { MAX_FILE_BYTES } from '@/lib/files/file-types';
import type { Attachment } from '@/lib/schema';
import { resolveClient } from '@/server/contacts/client-service';
import { plainSql } from '@/server/db/raw-sql';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { handleEvent } from '@/server/engine/handle-event';
import { fileAttachment, storeFile } from '@/server/files/stored-files';
import { recordDeliveryStatus } from '../delivery-status';
import type { InboundProcessor, UpdateChannel, UpdateEnd } from '../inbound/pipeline';
import { CHATAPP_CLIENT_TYPE, cloudCredentials } from './channel-service';
import { graphApi } from './graph-api';

/**
 * What the Cloud API's updates do, on the channels' inbound pipeline: a client's message is
 * marked read with the typing indicator on (the bot is working), its files are downloaded
 * and stored, and it runs through the engine as the client's message, opening the client's
 * 24-hour window (their channel state); a status report moves the message's delivery status.
 */

async function runUpdate(deps: EngineDeps, channel: UpdateChannel, update: CloudInbound, end: UpdateEnd) {
  const sql = plainSql(deps.db);
  if (update.kind === 'invalid') return end.notProcessed(update.reason);
  if (update.kind === 'ignore') return void (await sql.run(end.done.statement, end.done.params));
  const credentials = cloudCredentials(channel);
  const api = graphApi(credentials.token);
  const ref = { clientType: CHATAPP_CLIENT_TYPE, groupId: channel.groupId };
  if (update.kind === 'status') {
    const client = await deps.db.client.findFirst({
      where: { projectId: channel.projectId, ...ref, platformId: update.recipient },
      select: { id: true },
    });
    if (client)
      await recordDeliveryStatus(deps, {
        projectId: channel.projectId,
        clientId: client.id,
        externalId: update.messageId,
        status: update.status,
        ...(update.error ? { error: update.error.text } : {}),
      });
    return void (await sql.run(end.done.statement, end.done.params));
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
      if (!read.ok) console.warn(`[chatapp] ${update.messageId} was not marked read: ${read.description}`);
    });
  const clientRef = { ...ref, platformId: update.from, ...(update.name ? { name: update.name } : {}) };
  const attachments = update.attachments.length
    ? await storeFiles(deps, channel, api, clientRef, update.attachments)
    : [];
  await handleEvent(
    deps,
    channel.projectId,
    { ref: clientRef },
    {
      type: 'message',
      text: update.text,
      attachments,
      channelState: { [LAST_MESSAGE_KEY]: new Date(update.sentAt * 1000).toISOString() },
    },
    { alsoWrite: end.done },
  );
}

/**
 * The message's files, downloaded through the Graph API (its address needs the token and
 * expires in minutes) and kept as the client's files, served at our signed addresses. A retry
 * of the update gets the files stored the first time (the media id is the upload key).
 */
async function storeFiles(
  deps: EngineDeps,
  channel: UpdateChannel,
  api: ReturnType<typeof graphApi>,
  clientRef: Parameters<typeof resolveClient>[2],
  files: CloudAttachment[],
): Promise<Attachment[]> {
  const client = await resolveClient(deps.db, channel.projectId, clientRef);
  const stored: Attachment[] = [];
  for (const file of files) {
    const media = await api.get<{ url?: string; mime_type?: string }>(file.mediaId);
    if (!media.ok || !media.result.url)
      throw new Error(
        `the file ${file.mediaId} could not be read: ${media.ok ? 'no address' : media.description}`,
      );
    const got = await api.download(media.result.url, MAX_FILE_BYTES);
    if (!got.ok) throw new Error(`the file ${file.mediaId} could not be downloaded: ${got.description}`);
    const ref = await storeFile(deps.db, {
      projectId: channel.projectId,
      clientId: client.id,
      name: file.name ?? `${file.type}-${file.mediaId.slice(-12)}${extensionOf(file.mime)}`,
      mimeType: media.result.mime_type ?? file.mime,
      bytes: got.result.bytes,
      uploadKey: `chatapp:${file.mediaId}`,
    });
    stored.push(fileAttachment(ref));
  }
  return stored;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/webp': '.webp',
  'video/mp4': '.mp4',
  'audio/ogg': '.ogg',
  'audio/mpeg': '.mp3',
  'application/pdf': '.pdf',
};
const extensionOf = (mime: string) => EXTENSIONS[mime.split(';')[0].trim()] ?? '';

export const chatappInbound: InboundProcessor<CloudInbound> = {
  kind: 'chatapp',
  parse: (payload) => parseCloudItem(payload),
  run: runUpdate,
};
