#!/usr/bin/env node
// `npm start`: builds the app when the build is missing or older than the sources, then runs
// `next start` directly (not through npx, whose death would leave the server running).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const next = path.join(root, 'node_modules', '.bin', 'next');
const buildId = path.join(root, '.next', 'BUILD_ID');
const sourceDirs = ['app', 'components', 'lib', 'server', 'prisma'];
const sourceFiles = ['package.json', 'next.config.mjs', 'instrumentation.ts', 'postcss.config.mjs'];

function newestMtime(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  if (entry.endsWith(`${path.sep}generated`)) return 0;
  return Math.max(0, ...fs.readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

function buildIsCurrent() {
  if (!fs.existsSync(buildId)) return false;
  const built = fs.statSync(buildId).mtimeMs;
  const sources = Math.max(...[...sourceDirs, ...sourceFiles].map((p) => newestMtime(path.join(root, p))));
  return sources <= built;
}

if (!buildIsCurrent()) {
  console.log('[blockbot] building the app (once, or after a change)…');
  const result = spawnSync(next, ['build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const port = process.env.PORT ?? '3000';
const child = spawn(next, ['start', '-p', port, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  // Our own SIGTERM handler stops the job worker and closes the embedded database cleanly.
  env: { ...process.env, NODE_ENV: 'production', NEXT_MANUAL_SIG_HANDLE: '1' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
