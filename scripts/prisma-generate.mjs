#!/usr/bin/env node
// Generates the Prisma client offline. `prisma generate` needs no schema engine, but the CLI
// checks that one is configured: any existing file will do (the native binary is not downloadable everywhere).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const result = spawnSync(path.join(root, 'node_modules', '.bin', 'prisma'), ['generate'], {
  cwd: root,
  encoding: 'utf8',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
if (result.status !== 0) {
  process.stderr.write(result.stdout + result.stderr);
  process.exit(result.status ?? 1);
}
