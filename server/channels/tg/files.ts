import { z } from 'zod';
import { TG_CLIENT_TYPE } from '@/lib/tg/inbound';
import { baseUrl } from '@/server/config/env';
import { isSignedUrl, urlSignature } from '@/server/config/url-signature';
import type { PrismaClient } from '@/server/db/client-type';
import { fileHeaders } from '@/server/files/file-response';
import { SafeHttpError, safeFetchStream } from '@/server/http';
import { tgApiRoot } from './bot-api';
import { channelBot, channelToken } from './channel-service';

/**
 * The messenger's files (what clients send, their profile photos) through our own route: the
 * Bot API's download URL carries the bot's token, so it is never stored or shown. What is
 * stored (a message's attachment, a client's avatar) is a URL of
 * `/api/channels/tg/<channel>/file/<file_id>` or `/avatar/<chat id>` signed with an HMAC of the
 * app's secret over the channel, the kind and the id: it cannot be guessed, nor moved to another
 * channel (project) or file. Whoever has the URL may open it, like the files it stands for in
 * the messenger; it is fetched from the Bot API when opened, within the Bot API's 20 MB.
 */

export type TgFileKind = 'file' | 'avatar';

/** The Bot API's getFile limit: larger files cannot be downloaded by a bot. */
export const MAX_TG_FILE_BYTES = 20 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 60_000;
/** The messenger's file ids are URL-safe base64; a chat id is an integer. */
const ID = { file: /^[A-Za-z0-9_-]{1,200}$/, avatar: /^-?\d{1,20}$/ } as const;

const SIGNED_AS = 'tg-file-url';

export function tgFileUrl(channelId: number, kind: TgFileKind, id: string): string {
  const base = baseUrl().replace(/\/+$/, '');
  return `${base}/api/channels/tg/${channelId}/${kind}/${encodeURIComponent(id)}?sig=${urlSignature(SIGNED_AS, [channelId, kind, id])}`;
}

const request = z.object({
  channel: z.coerce.number().int().positive(),
  kind: z.enum(['file', 'avatar']),
  id: z.string(),
  sig: z.string().max(100),
});

/** What the route answers: the file as it arrives (its size when known), or a status with a short reason. */
export type TgFileAnswer =
  | { ok: true; body: ReadableStream<Uint8Array>; size: number | null; contentType: string; inline: boolean }
  | { ok: false; status: number; error: string };

const fail = (status: number, error: string): TgFileAnswer => ({ ok: false, status, error });

/**
 * Types shown in the page (an <img>, <audio>, <video>); anything else is a download, so a file a
 * client sent can never run as a page of ours.
 */
const INLINE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
};

/** The file id of a private chat's (the user's) current profile photo, about 160 px wide. */
async function avatarFileId(bot: ReturnType<typeof channelBot>, chatId: string) {
  // Groups have no profile photos; only a user's avatar is offered (docs/channels/tg.md).
  if (chatId.startsWith('-')) return undefined;
  const photos = await bot.call((api) => api.getUserProfilePhotos(Number(chatId), { limit: 1 }));
  if (!photos.ok) return photos;
  const sizes = photos.result.photos[0] ?? [];
  const size = sizes.find((s) => s.width >= 160) ?? sizes.at(-1);
  return size?.file_id;
}

/**
 * Checks the signed request and opens the file at the Bot API. Its bytes are passed on as they
 * arrive, never held whole: one the messenger gives larger than the 20 MB is cut there.
 */
export async function fetchTgFile(db: PrismaClient, input: Record<string, unknown>): Promise<TgFileAnswer> {
  const parsed = request.safeParse(input);
  if (!parsed.success) return fail(400, 'not a file address of this app');
  const { channel: channelId, kind, id, sig } = parsed.data;
  if (!ID[kind].test(id)) return fail(400, `not a ${kind === 'file' ? 'file id' : 'chat id'}`);
  if (!isSignedUrl(SIGNED_AS, [channelId, kind, id], sig))
    return fail(403, 'the address is not signed by this app for this file');
  const channel = await db.channel.findFirst({ where: { id: channelId, clientType: TG_CLIENT_TYPE } });
  if (!channel || typeof (channel.credentials as { token?: unknown })?.token !== 'string')
    return fail(404, 'the bot of this file is no longer connected');
  const bot = channelBot(channel);
  const fileId = kind === 'file' ? id : await avatarFileId(bot, id);
  if (fileId === undefined) return fail(404, 'this client has no profile photo');
  if (typeof fileId !== 'string') return fromBotApi(fileId);
  const file = await bot.call((api) => api.getFile(fileId));
  if (!file.ok) return fromBotApi(file);
  if (!file.result.file_path || (file.result.file_size ?? 0) > MAX_TG_FILE_BYTES)
    return fail(413, 'the file is larger than the 20 MB a bot may download');
  const token = channelToken(channel);
  try {
    const download = await safeFetchStream(`${tgApiRoot()}/file/bot${token}/${file.result.file_path}`, {
      maxBytes: MAX_TG_FILE_BYTES,
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
    });
    if (download.status !== 200) {
      await download.body.cancel();
      return fail(502, `the messenger answered ${download.status} for the file`);
    }
    const type = INLINE_TYPES[file.result.file_path.split('.').pop()?.toLowerCase() ?? ''];
    const length = Number(download.headers['content-length']);
    return {
      ok: true,
      body: download.body,
      size: Number.isSafeInteger(length) && length >= 0 ? length : null,
      contentType: type ?? 'application/octet-stream',
      inline: !!type,
    };
  } catch (error) {
    if (error instanceof SafeHttpError && error.code === 'too_large')
      return fail(413, 'the file is larger than the 20 MB a bot may download');
    return fail(
      502,
      `the file could not be fetched: ${(error as Error).message.split(token).join('<token>')}`,
    );
  }
}

function fromBotApi(result: { ok: false; reason: string; description: string }): TgFileAnswer {
  if (/file is too big/i.test(result.description))
    return fail(413, 'the file is larger than the 20 MB a bot may download');
  if (result.reason === 'bad_request')
    return fail(404, `the messenger has no such file: ${result.description}`);
  return fail(502, `the messenger could not give the file: ${result.description}`);
}

/**
 * GET /api/channels/tg/<channel>/<file|avatar>/<id>?sig=…: the file, kept by the browser for a
 * day; a client's file is shown only when it is an image, audio or video, else downloaded, and
 * never runs as a page of ours (nosniff, a sandboxing CSP).
 */
export async function tgFileResponse(
  db: PrismaClient,
  req: Request,
  params: { channel: string; kind: string; id: string },
): Promise<Response> {
  const answer = await fetchTgFile(db, { ...params, sig: new URL(req.url).searchParams.get('sig') ?? '' });
  if (!answer.ok)
    return Response.json(
      { error: answer.error },
      { status: answer.status, headers: { 'cache-control': 'no-store' } },
    );
  // Passed on as it arrives: a file is never held whole in memory.
  return new Response(answer.body, {
    headers: {
      ...fileHeaders(answer),
      ...(answer.size === null ? {} : { 'content-length': String(answer.size) }),
    },
  });
}
