import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface MigrationFile {
  /** Folder name, e.g. `20261122140000_init`; migrations apply in name order. */
  name: string;
  sql: string;
  /** Prisma's checksum: SHA-256 of the file, hex. */
  checksum: string;
}

export function migrationsDir(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), 'prisma', 'migrations');
}

/** Reads prisma/migrations/<name>/migration.sql in Prisma's folder format. */
export function readMigrations(dir: string = migrationsDir()): MigrationFile[] {
  if (!fs.existsSync(/*turbopackIgnore: true*/ dir)) return [];
  return fs
    .readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter(
      (e) =>
        e.isDirectory() && fs.existsSync(path.join(/*turbopackIgnore: true*/ dir, e.name, 'migration.sql')),
    )
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const bytes = fs.readFileSync(path.join(/*turbopackIgnore: true*/ dir, name, 'migration.sql'));
      return {
        name,
        sql: bytes.toString('utf8'),
        checksum: createHash('sha256').update(bytes).digest('hex'),
      };
    });
}
