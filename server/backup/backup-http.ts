import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { dataDir } from '@/server/config/data-dir';
import { getSecrets } from '@/server/config/secrets';
import { getDatabase } from '@/server/db';
import { writeBackup } from './backup';

/** The header that carries a backup's summary (counts, size) beside its bytes. */
export const BACKUP_SUMMARY_HEADER = 'x-blockbot-backup';

/**
 * What `blockbot backup` sends a running server: derived from the sign-in secret, which only
 * who can read the data directory (or the server's environment) has, so the endpoint needs no
 * account and gives nothing to anyone else.
 */
export function backupToken(): string {
  return createHmac('sha256', getSecrets().authSecret).update('blockbot backup').digest('hex');
}

const plain = (status: number, text: string) =>
  new Response(`${text}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

/**
 * `POST /api/backup`: a consistent backup of the embedded database taken by the server that
 * holds it open (no other process may open it), streamed to `blockbot backup`.
 */
export async function backupResponse(request: Request): Promise<Response> {
  const database = await getDatabase();
  if (database.mode !== 'embedded')
    return plain(
      404,
      'This instance runs on PostgreSQL: back it up with pg_dump (docs/operations.md, "Backups").',
    );
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? '');
  const expected = Buffer.from(backupToken());
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return plain(
      401,
      'A backup is asked for by `blockbot backup FILE` on the machine that holds the data directory.',
    );
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-backup-http-'));
  const file = path.join(work, 'backup.tar');
  try {
    const summary = await writeBackup(database, dataDir(), file);
    const stream = fs.createReadStream(file);
    stream.on('close', () => fs.rmSync(work, { recursive: true, force: true }));
    return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
      headers: {
        'content-type': 'application/x-tar',
        'content-length': String(summary.bytes),
        'cache-control': 'no-store',
        [BACKUP_SUMMARY_HEADER]: JSON.stringify(summary),
      },
    });
  } catch (error) {
    fs.rmSync(work, { recursive: true, force: true });
    throw error;
  }
}
