import { getDb } from '@/server/db';
import { storedFileResponse } from '@/server/files/stored-files';

type Params = { params: Promise<{ id: string; name: string }> };

/** A file a client sent, by its signed address (server/files/stored-files.ts). */
export async function GET(req: Request, { params }: Params) {
  return storedFileResponse(await getDb(), req, await params);
}
