import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { z } from 'zod';
import { embeddedDatabaseDir } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { type Database, lockHolder, openDatabase } from '@/server/db/database';
import { readMigrations } from '@/server/db/migration-files';
import { appliedMigrations, checkpoint } from '@/server/db/operations-sql';
import { plainSql } from '@/server/db/raw-sql';
import { DomainError, invalid } from '@/server/errors';

/**
 * Backups of the embedded database (docs/operations.md, "Backups"): one tar file holding
 * `manifest.json`, `database.tgz` (PGlite's own dump of its data directory, taken between two
 * statements after a checkpoint: what a crash at that moment would leave, which PostgreSQL
 * recovers) and the secrets the data directory generated (`secrets.json`: the sign-in secret,
 * `encryption-key`: the key of messenger tokens and project secrets), without which a restored
 * database could not read its own tokens. Server mode backs up PostgreSQL with pg_dump instead.
 */

export const BACKUP_FORMAT = 'blockbot-backup';
const DATABASE_FILE = 'database.tgz';
const MANIFEST_FILE = 'manifest.json';
/** The data directory's generated secrets (server/config/secrets.ts, secret-box.ts). */
const SECRET_FILES = ['secrets.json', 'encryption-key'];

const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(1),
  createdAt: z.string(),
  migrations: z.array(z.string()),
});

export interface BackupSummary {
  projects: number;
  clients: number;
  messages: number;
  migrations: number;
  bytes: number;
}

async function counts(prisma: PrismaClient) {
  const [projects, clients, messages] = await Promise.all([
    prisma.project.count(),
    prisma.client.count(),
    prisma.message.count(),
  ]);
  return { projects, clients, messages };
}

/** Writes a backup of the embedded database open in this process, and of its data directory's secrets, to `file`. */
export async function writeBackup(database: Database, dataDir: string, file: string): Promise<BackupSummary> {
  const { pglite, prisma } = database;
  if (!pglite)
    throw new DomainError(
      'invalid',
      'Blockbot backs up only its embedded database; in server mode use pg_dump (docs/operations.md, "Backups").',
    );
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-backup-'));
  try {
    // Fewer WAL records to replay when it is restored.
    await plainSql(prisma).run(checkpoint, {});
    const migrations = (await plainSql(prisma).run(appliedMigrations, {})).map((m) => m.name).sort();
    const found = await counts(prisma);
    const dump = await pglite.dumpDataDir('gzip');
    fs.writeFileSync(path.join(work, DATABASE_FILE), Buffer.from(await dump.arrayBuffer()));
    const manifest = { format: BACKUP_FORMAT, version: 1, createdAt: new Date().toISOString(), migrations };
    fs.writeFileSync(path.join(work, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
    const secrets = SECRET_FILES.filter((name) => fs.existsSync(path.join(dataDir, name)));
    for (const name of secrets) fs.copyFileSync(path.join(dataDir, name), path.join(work, name));
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    // Written beside the target, then renamed: a backup cut short never looks like a whole one.
    const partial = `${file}.partial`;
    await tar.create({ file: partial, cwd: work, portable: true }, [
      MANIFEST_FILE,
      DATABASE_FILE,
      ...secrets,
    ]);
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, file);
    return { ...found, migrations: migrations.length, bytes: fs.statSync(file).size };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export interface RestoreSummary extends Omit<BackupSummary, 'bytes'> {
  /** Where what the data directory held before was moved, if it held anything. */
  movedAside: string | null;
}

/**
 * Restores a backup into the data directory, whose server must be stopped: what it held is
 * moved aside first (into `before-restore-<time>/`), never deleted. Migrations this release
 * adds are applied to the restored database; a backup of a newer release is refused.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<RestoreSummary> {
  const databaseDir = embeddedDatabaseDir(dataDir);
  const holder = lockHolder(databaseDir);
  if (holder)
    throw new DomainError(
      'conflict',
      `the embedded database in ${dataDir} is open in another process (pid ${holder}), probably a running Blockbot server: stop it first, restoring replaces its database.`,
    );
  if (!fs.existsSync(file)) throw new DomainError('not_found', `there is no file ${file}.`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-restore-'));
  try {
    await tar.extract({ file, cwd: work, strict: true }).catch((error: Error) => {
      throw invalid(`${file} is not a Blockbot backup: it is not a tar file (${error.message}).`);
    });
    const manifest = readManifest(file, work);
    const known = new Set(readMigrations().map((m) => m.name));
    const newer = manifest.migrations.filter((name) => !known.has(name));
    if (newer.length)
      throw invalid(
        `${file} was made by a newer Blockbot (its database has ${newer.length} migrations this one does not know, like ${newer[0]}): upgrade Blockbot, then restore.`,
      );
    const movedAside = moveAside(dataDir);
    for (const name of SECRET_FILES) {
      const secret = path.join(work, name);
      if (fs.existsSync(secret)) fs.copyFileSync(secret, path.join(dataDir, name));
    }
    const template = new Blob([fs.readFileSync(path.join(work, DATABASE_FILE))]);
    const database = await openDatabase({ mode: 'embedded', dataDir: databaseDir, template });
    try {
      const found = await counts(database.prisma);
      const migrations = (await plainSql(database.prisma).run(appliedMigrations, {})).length;
      return { ...found, migrations, movedAside };
    } finally {
      await database.close();
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function readManifest(file: string, work: string) {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.join(work, MANIFEST_FILE), 'utf8'));
  } catch {
    throw invalid(`${file} is not a Blockbot backup: it has no readable ${MANIFEST_FILE}.`);
  }
  const manifest = manifestSchema.safeParse(raw);
  if (!manifest.success || !fs.existsSync(path.join(work, DATABASE_FILE)))
    throw invalid(
      `${file} is not a Blockbot backup of this format (${BACKUP_FORMAT}, version 1): ${
        manifest.success
          ? `it has no ${DATABASE_FILE}`
          : manifest.error.issues.map((i) => i.path.join('.') || i.message).join(', ')
      }.`,
    );
  return manifest.data;
}

/** Moves the data directory's database and secrets into `before-restore-<time>/`; null when it held none. */
function moveAside(dataDir: string): string | null {
  const present = ['pglite', ...SECRET_FILES].filter((name) => fs.existsSync(path.join(dataDir, name)));
  fs.mkdirSync(dataDir, { recursive: true });
  if (!present.length) return null;
  const aside = path.join(dataDir, `before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  fs.mkdirSync(aside);
  for (const name of present) fs.renameSync(path.join(dataDir, name), path.join(aside, name));
  return aside;
}
