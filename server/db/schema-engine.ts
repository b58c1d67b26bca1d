import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';

/**
 * Prisma's schema engine compiled to WebAssembly, on an in-memory PGlite: it computes
 * migrations without the native engine, whose binary cannot be downloaded where Prisma's binary host is out of reach.
 * Development tooling only; the app never loads it.
 */

interface DiffResult {
  exitCode: number;
  stdout: string | null;
}

interface SchemaEngine {
  diff(params: unknown): Promise<DiffResult>;
}

async function loadEngineModule() {
  // The package's entry imports a .wasm file, which Node cannot; instantiate it by hand.
  const dir = path.join(process.cwd(), 'node_modules', '@prisma', 'schema-engine-wasm');
  const bg = await import(pathToFileURL(path.join(dir, 'schema_engine_bg.js')).href);
  const { instance } = await WebAssembly.instantiate(
    fs.readFileSync(path.join(dir, 'schema_engine_bg.wasm')),
    {
      './schema_engine_bg.js': bg,
    },
  );
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
  return bg as {
    SchemaEngine: {
      new: (options: unknown, log: (m: string) => void, adapter: unknown) => Promise<SchemaEngine>;
    };
  };
}

export interface MigrationDirectory {
  name: string;
  sql: string;
}

/** SQL that takes a database from the given migrations to the schema; empty when they agree. */
export async function diffMigrationsToSchema(
  migrationsDir: string,
  migrations: MigrationDirectory[],
  schemaPath: string,
  schema: string,
): Promise<string> {
  const { SchemaEngine } = await loadEngineModule();
  const pglite = new PGlite();
  try {
    const factory = bindMigrationAwareSqlAdapterFactory(new PrismaPGlite(pglite) as never);
    const engine = await SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, () => {}, factory);
    const from = migrations.length
      ? {
          tag: 'migrations',
          baseDir: migrationsDir,
          lockfile: { path: 'migration_lock.toml', content: 'provider = "postgresql"\n' },
          shadowDbInitScript: '',
          migrationDirectories: migrations.map((m) => ({
            path: m.name,
            migrationFile: { path: 'migration.sql', content: { tag: 'ok', value: m.sql } },
          })),
        }
      : { tag: 'empty' };
    const result = await engine.diff({
      from,
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    const sql = result.stdout ?? '';
    return /^\s*(--[^\n]*\n?\s*)*$/.test(sql) || sql.includes('This is an empty migration') ? '' : sql;
  } finally {
    await pglite.close();
  }
}
