import { setTimeout as sleep } from 'node:timers/promises';
import type { TestReport } from '@/lib/conversation-tests/results';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { DomainError } from '@/server/errors';
import { carryOutTestRun, type SuiteOptions, testedSchema } from './run-suite';

/** How long a caller waits for a worker to finish a run. */
const RUN_WAIT_MS = 15 * 60_000;

/**
 * Runs the tests and answers their report once the run is finished: carried out by a worker when
 * the caller hands the queue in (`queueTestRun` of server/jobs/test-run-job.ts: the UI's
 * procedures), else here (the CLI, the benchmark).
 */
export async function runTestSuite(
  deps: EngineDeps,
  projectId: number,
  options: SuiteOptions,
): Promise<TestReport> {
  if (options.bot !== 'draft') await testedSchema(deps, projectId, options.bot);
  const run = await deps.db.testRun.create({
    data: {
      projectId,
      version: options.bot === 'draft' ? 0 : options.bot,
      testIds: [...(options.testIds ?? [])],
    },
    select: { id: true },
  });
  if (options.queue) await options.queue(run.id);
  else await carryOutTestRun(deps, run.id);
  return finishedReport(deps, run.id);
}

/** Waits for the run to end (a worker carries it out): its report, or its error. */
async function finishedReport(deps: EngineDeps, runId: number): Promise<TestReport> {
  const until = Date.now() + RUN_WAIT_MS;
  for (let wait = 50; ; wait = Math.min(wait * 2, 500)) {
    const row = await deps.db.testRun.findUnique({
      where: { id: runId },
      select: { report: true, error: true, finishedAt: true },
    });
    if (row?.finishedAt) {
      if (row.error || !row.report)
        throw new DomainError('conflict', row.error ?? 'The test run ended without a report.');
      return row.report as unknown as TestReport;
    }
    if (Date.now() > until)
      throw new DomainError(
        'conflict',
        'The tests did not finish within 15 minutes: is a worker running? Nothing was changed.',
      );
    await sleep(wait);
  }
}
