#!/usr/bin/env node
// `npm test`: type checking, lint, generated-docs check, unit and integration tests (Vitest) and
// browser tests (Playwright against `next start`). Ends with one summary line counting every test.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-test-'));
const skipE2e = process.env.BLOCKBOT_SKIP_E2E === '1';
const failures = [];
/** Each failed test by file and name, repeated at the end where a log's tail shows it. */
const failedTests = [];
let passed = 0;
let failed = 0;

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
  for (const result of report.testResults) {
    const where = path.relative(root, result.name);
    const failedHere = result.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failedHere) failedTests.push(`${where} › ${test.fullName}`);
    // A file that fails before its tests run (an import, a hook) has no failed test of its own.
    if (result.status === 'failed' && failedHere.length === 0)
      failedTests.push(`${where}: ${result.message}`);
  }
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return;
  const { stats, suites, config } = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += stats.expected;
  failed += stats.unexpected + stats.flaky;
  // A file's suite is titled with the file's name; the suites within it are its describe blocks.
  const visit = (suite, titles) => {
    const here = suite.title === suite.file ? titles : [...titles, suite.title];
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        if (test.status === 'unexpected' || test.status === 'flaky')
          failedTests.push(
            `${path.relative(root, path.join(config.rootDir, spec.file))}:${spec.line} › ${[...here, spec.title].join(' › ')} (${test.status})`,
          );
    for (const child of suite.suites ?? []) visit(child, here);
  };
  for (const suite of suites) visit(suite, []);
}

const vitestArgs = (name) => [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${path.join(reports, name)}`,
];
/** A Vitest run: its report counted when it ends. */
const vitestRun = (name, args, env, report) => async () => {
  await stepAside(name, bin('vitest'), [...vitestArgs(report), ...args], env);
  countVitest(path.join(reports, report));
};
// The embedded database's runs never see TEST_DATABASE_URL (CI exports it for the PostgreSQL run).
// The embedded run is the longest, so it comes in shards that either lane can take.
const EMBEDDED_SHARDS = 6;
const embeddedRuns = Array.from({ length: EMBEDDED_SHARDS }, (_, i) =>
  vitestRun(
    `unit and integration tests (embedded PGlite, part ${i + 1} of ${EMBEDDED_SHARDS})`,
    [`--shard=${i + 1}/${EMBEDDED_SHARDS}`],
    { TEST_DATABASE_URL: '' },
    `vitest-pglite-${i + 1}.json`,
  ),
);
// Both database modes on every change: the database-backed tests again on PostgreSQL when it answers.
const pgRun =
  process.env.TEST_DATABASE_URL &&
  vitestRun(
    'integration tests (PostgreSQL)',
    ['--project', 'db'],
    { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL },
    'vitest-pg.json',
  );
const vitestQueue = [pgRun, ...embeddedRuns].filter(Boolean);

/** Takes Vitest runs off the queue until none is left. */
async function drainVitest() {
  for (let run = vitestQueue.shift(); run; run = vitestQueue.shift()) await run();
}

/** The checks, the build and the browser tests, one after another. */
async function checksAndBrowserTests() {
  // Next.js's route types (.next/types), which the type check includes: `next build` checks no
  // types itself (next.config.mjs), and this runs before any build.
  await stepAside('route types', bin('next'), ['typegen']);
  await stepAside('type check', bin('tsc'), ['--noEmit']);
  await stepAside('lint', bin('biome'), ['check', '.']);
  if (fs.existsSync(path.join(root, 'scripts', 'gen-formula-docs.ts')))
    await stepAside('docs are current', bin('tsx'), ['scripts/gen-formula-docs.ts', '--check']);
  if (skipE2e) {
    console.log('\n▶ browser tests skipped (BLOCKBOT_SKIP_E2E=1)');
    return;
  }
  if (await stepAside('build for browser tests', bin('next'), ['build'])) {
    await stepAside('browser tests (Playwright)', bin('playwright'), ['test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, 'playwright.json'),
    });
    countPlaywright(path.join(reports, 'playwright.json'));
  }
}

// Lanes for a 2-core machine. A Vitest run (one worker) keeps about a third of the machine busy:
// its files wait on the database, child processes and timers. Beside the browser tests, which
// take more than a core, one run fills the machine; once they end, two more runs take the
// remaining parts, so the last minutes do not leave a core idle while one part runs alone.
await Promise.all([
  checksAndBrowserTests().then(() => Promise.all([drainVitest(), drainVitest()])),
  drainVitest(),
]);

console.log(failures.length ? `\nFailed steps: ${failures.join(', ')}` : '\nAll steps passed.');
for (const test of failedTests) console.log(`  ✗ ${test}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failures.length ? 1 : 0);
