import { MAX_FILE_BYTES } from '@/lib/files/file-types';
import type { Attachment, Buttons } from '@/lib/schema';
import { type ClientRef, resolveClient } from '@/server/contacts/client-service';
import { plainSql } from '@/server/db/raw-sql';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { handleEvent } from '@/server/engine/handle-event';
import { fileAttachment, storeFile } from '@/server/files/stored-files';
import { SafeHttpError, safeFetch } from '@/server/http';
import { chosenOption } from '../chosen-option';
import type { UpdateChannel, UpdateEnd } from './pipeline';

/**
 * A client's message, as a messenger's update carries it, into the engine's event: its files
 * downloaded and kept as the client's files (served at our signed addresses), a bare number
 * typed in answer to options shown as numbered text taken as the option's text, and the event
 * written with the update's end, so the update is processed exactly when its event is stored.
 */

/** A file of the message, as its messenger gives it. */
export interface InboundFile {
  /** The upload key: a retry of the update gets the file stored the first time. */
  uploadKey: string;
  download(): Promise<{ bytes: Uint8Array; name: string; mimeType: string }>;
}

/**
 * A file a messenger gives by address (its CDN's, whose addresses expire), downloaded while the
 * update is processed, through server/http; named by `name`, else the address's last segment.
 */
export function fileAtUrl(
  uploadKey: string,
  file: { url: string; type: string; name?: string },
  fallbackName: string,
): InboundFile {
  return {
    uploadKey,
    async download() {
      let res: Awaited<ReturnType<typeof safeFetch>>;
      try {
        res = await safeFetch(file.url, { maxBytes: MAX_FILE_BYTES });
      } catch (error) {
        if (!(error instanceof SafeHttpError)) throw error;
        throw new Error(`the ${file.type} ${file.url} could not be downloaded: ${error.message}`);
      }
      if (res.status !== 200)
        throw new Error(`the ${file.type} ${file.url} could not be downloaded: HTTP ${res.status}`);
      return {
        bytes: res.bytes,
        mimeType: (res.headers['content-type'] ?? 'application/octet-stream').split(';')[0].trim(),
        name: file.name || new URL(file.url).pathname.split('/').pop() || fallbackName,
      };
    },
  };
}

export interface InboundMessage {
  /** The client, with their name when the messenger gives it (kept when the client is new). */
  client: ClientRef & { platformId: string };
  text: string;
  files: InboundFile[];
  /** What needs no download (links), after the files. */
  links?: Attachment[];
  /** Whether the options of the bot's last message went as numbered text (chosen-option.ts). */
  numbered(buttons: Buttons): boolean;
  /** The client's channel state the message sets (their window, their username). */
  channelState?: Record<string, string>;
}

export async function runMessage(
  deps: EngineDeps,
  channel: UpdateChannel,
  message: InboundMessage,
  end: UpdateEnd,
): Promise<void> {
  const { client, channelState } = message;
  const attachments = [
    ...(message.files.length ? await storeFiles(deps, channel.projectId, client, message.files) : []),
    ...(message.links ?? []),
  ];
  const key = { clientType: client.clientType, groupId: client.groupId, platformId: client.platformId };
  await handleEvent(
    deps,
    channel.projectId,
    { ref: client },
    {
      type: 'message',
      text: await chosenOption(deps, channel.projectId, key, message.text, message.numbered),
      attachments,
      ...(channelState ? { channelState } : {}),
    },
    { alsoWrite: end.done },
  );
}

/** Ends an update that makes no event (a status report, an update ignored): marked processed. */
export async function updateDone(deps: EngineDeps, end: UpdateEnd): Promise<void> {
  await plainSql(deps.db).run(end.done.statement, end.done.params);
}

async function storeFiles(
  deps: EngineDeps,
  projectId: number,
  ref: ClientRef,
  files: InboundFile[],
): Promise<Attachment[]> {
  const client = await resolveClient(deps.db, projectId, ref);
  const stored: Attachment[] = [];
  for (const file of files) {
    const got = await file.download();
    const ref = await storeFile(deps.db, {
      projectId,
      clientId: client.id,
      name: got.name,
      mimeType: got.mimeType,
      bytes: got.bytes,
      uploadKey: file.uploadKey,
    });
    stored.push(fileAttachment(ref));
  }
  return stored;
}
