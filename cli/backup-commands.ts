import fs from 'node:fs';
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import { restoreBackup, writeBackup } from '@/server/backup/backup';
import { BACKUP_SUMMARY_HEADER, backupToken } from '@/server/backup/backup-http';
import { dataDir } from '@/server/config/data-dir';
import { baseUrl, isServerMode } from '@/server/config/env';
import { closeDb, embeddedDatabaseDir, getDatabase } from '@/server/db';
import { lockHolder } from '@/server/db/database';
import { DomainError } from '@/server/errors';
import { getSafeHttpConfig, safeFetchStream } from '@/server/http';

const PG_DUMP = `This instance runs on PostgreSQL (DATABASE_URL): back it up with pg_dump, e.g.
  pg_dump --format=custom --file=blockbot.dump "$DATABASE_URL"
and restore with pg_restore (docs/operations.md, "Backups").`;

/** A backup's counts, as both commands print them. */
const counted = (s: { projects: number; clients: number; messages: number; migrations: number }) =>
  `${s.projects} projects, ${s.clients} clients, ${s.messages} messages; ${s.migrations} migrations applied`;

/** `blockbot backup FILE` and `blockbot restore FILE`: the embedded database and its data directory's secrets. */
export function addBackupCommands(program: Command, out: (text: string) => void): void {
  program
    .command('backup')
    .description(
      "back up the embedded database and its data directory's secrets into FILE (a running server is asked for it)",
    )
    .argument('<file>', 'where to write the backup (a tar file)')
    .option(
      '--url <url>',
      "the running server's address, when it is not BLOCKBOT_BASE_URL (or http://localhost:PORT)",
    )
    .action(async (file: string, opts: { url?: string }) => {
      if (isServerMode()) throw new DomainError('invalid', PG_DUMP);
      const holder = lockHolder(embeddedDatabaseDir());
      const summary = holder ? await backupFromServer(file, opts.url ?? baseUrl()) : await backupHere(file);
      out(
        `Backed up to ${file} (${(summary.bytes / 1024 / 1024).toFixed(1)} MB${holder ? `, taken by the running server, pid ${holder}` : ''}): ${counted(summary)}.\n`,
      );
    });

  program
    .command('restore')
    .description(
      'restore a backup into the data directory (stop the server first; what it held is moved aside)',
    )
    .argument('<file>', 'a file written by `blockbot backup`')
    .action(async (file: string) => {
      if (isServerMode()) throw new DomainError('invalid', PG_DUMP);
      const summary = await restoreBackup(file, dataDir());
      const aside = summary.movedAside
        ? ` What the data directory held before is in ${summary.movedAside}.`
        : '';
      out(`Restored ${file} into ${dataDir()}: ${counted(summary)}.${aside}\n`);
    });
}

async function backupHere(file: string) {
  try {
    return await writeBackup(await getDatabase(), dataDir(), file);
  } finally {
    await closeDb();
  }
}

/** The server holds the database open (no other process may): it takes the backup and streams it here. */
async function backupFromServer(file: string, base: string) {
  const url = new URL('/api/backup', base);
  // Its own server, reached on purpose although local.
  const config = { ...getSafeHttpConfig(), allowHosts: [url.hostname, url.host] };
  const response = await safeFetchStream(
    url.toString(),
    {
      method: 'POST',
      headers: { authorization: `Bearer ${backupToken()}` },
      maxBytes: 2 ** 40,
      timeoutMs: 3_600_000,
    },
    config,
  ).catch((error: Error) => {
    throw new DomainError(
      'conflict',
      `the embedded database is open in a running server, which did not answer at ${base} (${error.message}). Pass its address with --url, or stop it and run the backup again.`,
    );
  });
  if (response.status !== 200) {
    const text = await new Response(response.body).text();
    throw new DomainError(
      'conflict',
      `the server at ${base} refused the backup (${response.status}): ${text.trim()}`,
    );
  }
  const partial = `${file}.partial`;
  await response.body.pipeTo(Writable.toWeb(fs.createWriteStream(partial, { mode: 0o600 })));
  fs.renameSync(partial, file);
  return JSON.parse(response.headers[BACKUP_SUMMARY_HEADER] ?? '{}') as Awaited<
    ReturnType<typeof writeBackup>
  >;
}
