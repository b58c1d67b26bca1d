import fs from 'node:fs/promises';
import { type Command, Option } from 'commander';
import { countLines } from '@/lib/transfer/report-text';
import { isServerMode } from '@/server/config/env';
import type { PrismaClient } from '@/server/db/client-type';
import { exportProject } from '@/server/transfer/export-project';
import { type ImportReport, importProject } from '@/server/transfer/import-project';
import { TransferError } from '@/server/transfer/transfer-error';

/**
 * `blockbot project export` and `project import`: moving a project to another instance
 * (docs/operations.md, "Moving a project to another instance").
 */
export function addTransferCommands(
  project: Command,
  cli: {
    out: (text: string) => void;
    withDb: <T>(run: (db: PrismaClient) => Promise<T>) => Promise<T>;
    /** The CLI's parser of `--project <id>`. */
    projectId: (value: string) => number;
  },
): void {
  const { out, withDb, projectId } = cli;
  // The archive's secrets key comes from --key or BLOCKBOT_EXPORT_KEY, never from the instance's own.
  const archiveKey = () =>
    new Option('--key <passphrase>', 'the archive key of its secrets (at least 12 characters)').env(
      'BLOCKBOT_EXPORT_KEY',
    );
  project
    .command('export')
    .description('write a whole project (bot, versions, clients, history, CRM, files…) to an archive file')
    .requiredOption('--project <id>', 'project id', projectId)
    .option('--with-secrets', 'include project secrets and the webhook secret, sealed with --key')
    .addOption(archiveKey())
    .option('--json', 'print the counts as JSON')
    .argument('<file>', 'archive file to write (gzip, e.g. shop.blockbot.gz)')
    .action(
      async (
        file: string,
        opts: { project: number; withSecrets?: boolean; key?: string; json?: boolean },
      ) => {
        if (opts.withSecrets && !opts.key)
          throw new TransferError(
            '--with-secrets needs --key <passphrase> (or BLOCKBOT_EXPORT_KEY): the secrets are sealed with it',
          );
        const summary = await withDb((db) =>
          exportProject(db, opts.project, file, {
            mode: isServerMode() ? 'server' : 'embedded',
            secretsKey: opts.withSecrets ? opts.key : undefined,
          }),
        );
        if (opts.json) {
          out(`${JSON.stringify({ file, ...summary }, null, 2)}\n`);
          return;
        }
        out(
          `Exported project ${opts.project} to ${file}:\n${countLines(summary.counts)}${summary.withSecrets ? 'Secrets are in it, sealed with your key: keep the key apart from the file.\n' : 'No secrets are in it (add --with-secrets --key … to move them).\n'}`,
        );
      },
    );

  project
    .command('import')
    .description(
      'make a new project from an archive of `project export` (ids are new; nothing is overwritten)',
    )
    .option(
      '--owner <email>',
      'e-mail of the owner (becomes its only member; linked to the account with this e-mail)',
    )
    .option('--name <name>', "the new project's name (default: the archive's)")
    .addOption(archiveKey())
    .option(
      '--id-map <file>',
      "write the archive's client, deal, list, stage and funnel ids → the new ones as JSON",
    )
    .option('--json', 'print the report as JSON')
    .argument('<file>', 'archive file')
    .action(
      async (
        file: string,
        opts: { owner?: string; name?: string; key?: string; idMap?: string; json?: boolean },
      ) => {
        const { idMap, ...report } = await withDb(async (db) => {
          const user = opts.owner
            ? await db.user.findUnique({ where: { email: opts.owner.toLowerCase() } })
            : null;
          return importProject(db, file, {
            secretsKey: opts.key,
            name: opts.name,
            owner: opts.owner ? { email: opts.owner, userId: user?.id, name: user?.name } : undefined,
            withIdMap: opts.idMap !== undefined,
          });
        });
        if (opts.idMap) await fs.writeFile(opts.idMap, `${JSON.stringify(idMap)}\n`);
        out(opts.json ? `${JSON.stringify(report, null, 2)}\n` : importReportText(report));
      },
    );
}

function importReportText(r: ImportReport): string {
  const skipped = r.skipped
    .map((s) => `  ${s.count > 1 ? `${s.count} ` : ''}${s.what}: ${s.reason}\n`)
    .join('');
  return [
    `Imported project ${r.projectId} "${r.name}" (project ${r.source.projectId} of the archive, exported ${r.source.exportedAt.toISOString()}):\n`,
    countLines(r.counts),
    skipped ? `Not imported:\n${skipped}` : '',
    `Not in an archive:\n${r.notes.map((n) => `  ${n}\n`).join('')}`,
  ].join('');
}
