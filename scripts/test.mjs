#!/usr/bin/env node
// `npm test`: type checking, lint, generated-docs check, unit and integration tests (Vitest) and
// browser tests (Playwright against `next start`). Ends with one summary line counting every test.
import { spawnSync } from 'node:child_process';
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
step('unit and integration tests (embedded PGlite)', bin('vitest'), vitestArgs('vitest-pglite.json'));
countVitest(path.join(reports, 'vitest-pglite.json'));

// Both database modes on every change: the database-backed tests again on PostgreSQL when it answers.
if (process.env.TEST_DATABASE_URL) {
  step(
    'integration tests (PostgreSQL)',
    bin('vitest'),
    [...vitestArgs('vitest-pg.json'), '--project', 'db'],
    {
      TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
    },
  );
  countVitest(path.join(reports, 'vitest-pg.json'));
}

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
