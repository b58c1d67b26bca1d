import { tgFileResponse } from '@/server/channels/tg/files';
import { getDb } from '@/server/db';

type Params = { params: Promise<{ channel: string; kind: string; id: string }> };

/** A tg client's file or avatar through the bot, by a signed URL (server/channels/tg/files.ts). */
export async function GET(req: Request, { params }: Params) {
  return tgFileResponse(await getDb(), req, await params);
}
