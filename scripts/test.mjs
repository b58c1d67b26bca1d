#!/usr/bin/env node
// `npm test`: type checking, lint, generated-docs check, unit and integration tests (Vitest) and
// browser tests (Playwright against `next start`). Ends with one summary line counting every test.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-test-'));
const skipE2e = process.env.BLOCKBOT_SKIP_E2E === '1';
const failures = [];
let passed = 0;
let failed = 0;

function step(name, command, args, env = {}) {
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) failures.push(name);
  return result.status === 0;
}

/**
 * A step run beside others: its output is kept and printed whole when it ends, so the logs of
 * steps running at once do not interleave.
 */
function stepAside(name, command, args, env = {}) {
  const log = path.join(reports, `${name.replace(/\W+/g, '-')}.log`);
  const out = fs.openSync(log, 'w');
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', out, out],
      env: { ...process.env, ...env },
    });
    child.on('close', (status) => {
      fs.closeSync(out);
      console.log(`\n▶ ${name} (${Math.round((Date.now() - started) / 1000)} s)`);
      process.stdout.write(fs.readFileSync(log));
      if (status !== 0) failures.push(name);
      resolve(status === 0);
    });
  });
}

function countVitest(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return;
  const { stats } = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += stats.expected;
  failed += stats.unexpected + stats.flaky;
}

// Next.js's route types (.next/types), which the type check includes: `next build` checks no
// types itself (next.config.mjs), and this runs before any build.
step('route types', bin('next'), ['typegen']);
step('type check', bin('tsc'), ['--noEmit']);
step('lint', bin('biome'), ['check', '.']);
if (fs.existsSync(path.join(root, 'scripts', 'gen-formula-docs.ts'))) {
  step('docs are current', bin('tsx'), ['scripts/gen-formula-docs.ts', '--check']);
}

const vitestArgs = (name) => [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${path.join(reports, name)}`,
];
// The embedded database's run never sees TEST_DATABASE_URL (CI exports it for the PostgreSQL run).
const pgliteRun = {
  name: 'unit and integration tests (embedded PGlite)',
  args: vitestArgs('vitest-pglite.json'),
  env: { TEST_DATABASE_URL: '' },
  report: 'vitest-pglite.json',
};
// Both database modes on every change: the database-backed tests again on PostgreSQL when it answers.
const pgRun = process.env.TEST_DATABASE_URL && {
  name: 'integration tests (PostgreSQL)',
  args: [...vitestArgs('vitest-pg.json'), '--project', 'db'],
  env: { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL },
  report: 'vitest-pg.json',
};
// Vitest runs one test file at a time on a 2-core machine; the two runs side by side use both
// cores (the embedded run is CPU in this process, the PostgreSQL run half in the server).
await Promise.all(
  [pgliteRun, pgRun].filter(Boolean).map(async (run) => {
    await stepAside(run.name, bin('vitest'), run.args, run.env);
    countVitest(path.join(reports, run.report));
  }),
);

if (skipE2e) {
  console.log('\n▶ browser tests skipped (BLOCKBOT_SKIP_E2E=1)');
} else if (step('build for browser tests', bin('next'), ['build'])) {
  step('browser tests (Playwright)', bin('playwright'), ['test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, 'playwright.json'),
  });
  countPlaywright(path.join(reports, 'playwright.json'));
}

console.log(failures.length ? `\nFailed steps: ${failures.join(', ')}` : '\nAll steps passed.');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failures.length ? 1 : 0);
