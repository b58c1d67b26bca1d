import { z } from 'zod';
import {
  ALLOWED_FILE_KINDS,
  isAllowedFileType,
  MAX_FILE_BYTES,
  matchesFileType,
  mimeEssence,
} from '@/lib/files/file-types';
import { safeUrl } from '@/lib/widget/messages';
import { cappedBytes } from '@/server/channels/capped-body';
import type { EngineDeps } from '@/server/engine/engine-deps';
import {
  DailyBytesExceeded,
  fileAttachment,
  fileNameSchema,
  type StoredFileRef,
  storeFile,
} from '@/server/files/stored-files';
import { widgetLimits } from './limits';
import { messageIdSchema, messageTextSchema, sendFromVisitor, type Visitor } from './visitors';

/**
 * A visitor's file: `POST files` with the file's bytes as the body and its type as Content-Type;
 * the name, an optional caption and the message id in headers, percent-encoded UTF-8 (a
 * header is Latin-1). Stored (server/files/), then sent through the engine as the visitor's
 * message with the file attached, so the bot gets its address in `#{attachment_url}`.
 */

export const UPLOAD_HEADERS = ['x-file-name', 'x-caption', 'x-message-id'] as const;

const uploadSchema = z.object({
  'x-file-name': fileNameSchema,
  'x-caption': messageTextSchema.optional(),
  'x-message-id': messageIdSchema.optional(),
});

export type UploadOutcome =
  | { ok: true; file: { url: string; name: string; size: number; type: string } }
  | { ok: false; status: number; error: string; message: string; retryAfter?: number };

const refused = (status: number, error: string, message: string): UploadOutcome => ({
  ok: false,
  status,
  error,
  message,
});

const tooLarge = () =>
  refused(
    413,
    'too_large',
    `The file is over ${MAX_FILE_BYTES / 1024 / 1024} MB, the most that can be sent.`,
  );

const wrongType = (why: string) =>
  refused(415, 'unsupported_type', `${why}; these can be sent: ${ALLOWED_FILE_KINDS}.`);

/** The upload's headers, decoded; a refusal naming the header that is wrong. */
function uploadHeaders(req: Request): z.output<typeof uploadSchema> | UploadOutcome {
  const raw: Record<string, string> = {};
  for (const name of UPLOAD_HEADERS) {
    const value = req.headers.get(name);
    if (value === null || (name === 'x-caption' && value === '')) continue;
    try {
      raw[name] = decodeURIComponent(value);
    } catch {
      return refused(400, 'invalid', `${name}: not percent-encoded UTF-8`);
    }
  }
  const parsed = uploadSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const header = String(issue.path[0]);
  return refused(
    400,
    'invalid',
    `${header}: ${raw[header] === undefined && header === 'x-file-name' ? 'the file name is required' : issue.message}`,
  );
}

/** Checks, stores and sends the visitor's file: size (413), headers (400), type (415), in that order. */
export async function receiveUpload(
  deps: EngineDeps,
  visitor: Visitor,
  req: Request,
): Promise<UploadOutcome> {
  if (Number(req.headers.get('content-length') ?? 0) > MAX_FILE_BYTES) return tooLarge();
  const input = uploadHeaders(req);
  if ('ok' in input) return input;
  const mime = mimeEssence(req.headers.get('content-type') ?? '');
  if (!isAllowedFileType(mime))
    return wrongType(mime ? `Files of type ${mime} cannot be sent` : 'A file with no type cannot be sent');
  const bytes = await cappedBytes(req, MAX_FILE_BYTES);
  if (bytes === null) return tooLarge();
  if (!bytes.byteLength) return refused(400, 'invalid', 'The file is empty.');
  if (!matchesFileType(mime, bytes)) return wrongType(`The file is labelled ${mime} but its content is not`);
  const id = input['x-message-id'];
  let file: StoredFileRef;
  try {
    file = await storeFile(deps.db, {
      projectId: visitor.projectId,
      clientId: visitor.clientId,
      name: input['x-file-name'],
      mimeType: mime,
      bytes,
      uploadKey: id && `widget:${id}`,
      bytesPerDay: widgetLimits().fileBytesPerVisitorPerDay,
    });
  } catch (error) {
    if (!(error instanceof DailyBytesExceeded)) throw error;
    return {
      ok: false,
      status: 429,
      error: 'rate_limited',
      message: error.message,
      retryAfter: error.retryAfter,
    };
  }
  const attachment = fileAttachment(file);
  await sendFromVisitor(deps, visitor, input['x-caption'] ?? '', id, [attachment]);
  return {
    ok: true,
    // As the widget's messages carry it, so the widget matches the sent file to its message.
    file: { url: safeUrl(file.url) ?? file.url, name: file.name, size: file.size, type: attachment.type },
  };
}
