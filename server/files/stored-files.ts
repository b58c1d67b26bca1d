import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { attachmentKind, MAX_FILE_BYTES } from '@/lib/files/file-types';
import type { Attachment } from '@/lib/schema';
import { baseUrl } from '@/server/config/env';
import { isSignedUrl, urlSignature } from '@/server/config/url-signature';
import type { Db } from '@/server/db/client-type';
import { DomainError, parseInput } from '@/server/errors';
import { fileResponse } from './file-response';

/**
 * Files clients send, kept in the database (`StoredFile`) so that any app instance serves them
 * and they go with their client and project. Any channel may store one (the widget's uploads do)
 * and put its address in a message: `/api/files/<id>/<name>?sig=…`, signed over the id, so it
 * cannot be guessed; whoever has the address may open it, like a file in a messenger.
 * The caller checks the type and size (lib/files/file-types.ts); this module keeps and serves.
 */

const SIGNED_AS = 'stored-file-url';

/** A file's name as shown and downloaded: no path, no control characters. */
export const fileNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'the file name is empty' })
  .max(255, { error: 'the file name is over 255 characters' })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  .refine((name) => !/[/\\\u0000-\u001f\u007f]/.test(name), {
    error: 'the file name may not contain / or \\ or control characters',
  })
  .refine((name) => !/^\.+$/.test(name), { error: 'the file name may not be only dots' });

const newFileInput = z.object({
  projectId: z.number().int().positive(),
  clientId: z.number().int().positive(),
  name: fileNameSchema,
  mimeType: z.string().min(3).max(255),
  bytes: z
    .custom<Uint8Array>((v) => v instanceof Uint8Array, { error: 'bytes: not a file' })
    .refine((b) => b.byteLength <= MAX_FILE_BYTES, {
      error: `a file is at most ${MAX_FILE_BYTES} bytes`,
    }),
  /** The sender's id of this upload: the same id again (a retry) gives back the first file. */
  uploadKey: z.string().min(1).max(200).optional(),
  /** The most bytes the client may have stored in the day before this file, this one included. */
  bytesPerDay: z.number().int().positive().optional(),
});

const DAY_MS = 24 * 60 * 60 * 1000;

/** A file over its client's daily bytes: `retryAfter` seconds until its oldest file of the day leaves the day. */
export class DailyBytesExceeded extends DomainError {
  constructor(
    readonly bytesPerDay: number,
    readonly retryAfter: number,
  ) {
    super(
      'limit',
      `Files of at most ${Math.round(bytesPerDay / 1024 / 1024)} MB in all can be sent in a day; try again in ${formatWait(retryAfter)}.`,
    );
  }
}

const formatWait = (seconds: number) =>
  seconds >= 3600
    ? `${Math.ceil(seconds / 3600)} h`
    : seconds >= 60
      ? `${Math.ceil(seconds / 60)} min`
      : `${seconds} s`;

/**
 * Refuses a file that would take its client past `bytesPerDay` in the last 24 hours. Two uploads
 * at once may both pass: the per-minute file limits bound what that lets through.
 */
async function checkDailyBytes(db: Db, clientId: number, size: number, bytesPerDay: number, now: Date) {
  const since = new Date(now.getTime() - DAY_MS);
  const day = await db.storedFile.aggregate({
    where: { clientId, createdAt: { gt: since } },
    _sum: { size: true },
    _min: { createdAt: true },
  });
  if ((day._sum.size ?? 0) + size <= bytesPerDay) return;
  const oldest = day._min.createdAt ?? now;
  const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + DAY_MS - now.getTime()) / 1000));
  throw new DailyBytesExceeded(bytesPerDay, retryAfter);
}

export interface StoredFileRef {
  id: string;
  name: string;
  mimeType: string;
  size: number;
  /** The signed address it is served at. */
  url: string;
}

const refFields = { id: true, name: true, mimeType: true, size: true } as const;

/** The signed address of a stored file; the name in it is for people and is not checked. */
export function storedFileUrl(file: { id: string; name: string }): string {
  const base = baseUrl().replace(/\/+$/, '');
  return `${base}/api/files/${file.id}/${encodeURIComponent(file.name)}?sig=${urlSignature(SIGNED_AS, [file.id])}`;
}

const withUrl = (file: Omit<StoredFileRef, 'url'>): StoredFileRef => ({ ...file, url: storedFileUrl(file) });

/** The message attachment that shows this file. */
export const fileAttachment = (file: StoredFileRef): Attachment => ({
  type: attachmentKind(file.mimeType),
  url: file.url,
});

/** Keeps a client's file; with an upload key already stored for this client, the stored one. */
export async function storeFile(db: Db, input: z.input<typeof newFileInput>): Promise<StoredFileRef> {
  const file = parseInput(newFileInput, input);
  const { clientId, uploadKey } = file;
  const byKey = () =>
    uploadKey
      ? db.storedFile.findUnique({
          where: { clientId_uploadKey: { clientId, uploadKey } },
          select: refFields,
        })
      : null;
  const before = await byKey();
  if (before) return withUrl(before);
  if (file.bytesPerDay)
    await checkDailyBytes(db, clientId, file.bytes.byteLength, file.bytesPerDay, new Date());
  const row = {
    id: randomBytes(16).toString('base64url'),
    projectId: file.projectId,
    clientId,
    name: file.name,
    mimeType: file.mimeType,
    size: file.bytes.byteLength,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
    bytes: file.bytes as Uint8Array<ArrayBuffer>,
    uploadKey: uploadKey ?? null,
  };
  // Two copies of one upload at once: the second finds the key taken and reads the first's file.
  const { count } = await db.storedFile.createMany({ data: [row], skipDuplicates: true });
  if (count) return withUrl({ id: row.id, name: row.name, mimeType: row.mimeType, size: row.size });
  return withUrl((await byKey())!);
}

const servedRequest = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{22}$/), sig: z.string().max(100) });

const refuse = (status: number, error: string) =>
  Response.json({ error }, { status, headers: { 'cache-control': 'no-store' } });

/**
 * GET /api/files/<id>/<name>?sig=…: the stored file, to any page (the widget's `<img>` on
 * another site; no cookie is needed), as a download unless it is an image, audio or video.
 * A wrong signature is 403 before the database is asked; an unknown (deleted) file 404.
 */
export async function storedFileResponse(db: Db, req: Request, params: { id: string }): Promise<Response> {
  const parsed = servedRequest.safeParse({
    id: params.id,
    sig: new URL(req.url).searchParams.get('sig') ?? '',
  });
  if (!parsed.success) return refuse(404, 'not a file address of this app');
  const { id, sig } = parsed.data;
  if (!isSignedUrl(SIGNED_AS, [id], sig))
    return refuse(403, 'the address is not signed by this app for this file');
  const file = await db.storedFile.findUnique({
    where: { id },
    select: { name: true, mimeType: true, sha256: true, bytes: true },
  });
  if (!file) return refuse(404, 'this file was deleted');
  const etag = `"${file.sha256}"`;
  if (req.headers.get('if-none-match') === etag)
    return new Response(null, { status: 304, headers: { etag, 'cache-control': 'private, max-age=86400' } });
  return fileResponse(file.bytes, {
    contentType: file.mimeType,
    inline: attachmentKind(file.mimeType) !== 'file',
    name: file.name,
    etag,
    range: req.headers.get('range') ?? '',
  });
}
