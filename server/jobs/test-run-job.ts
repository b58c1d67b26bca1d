import { carryOutTestRun } from '@/server/conversation-tests/run-suite';
import { getEngineDeps } from '@/server/engine/engine';
import { defineJob, enqueue } from './jobs';

/**
 * A run of conversation tests (docs/conversation-tests.md), carried out by a worker (with the
 * embedded database, the app's own process). One run at a time per job worker; its tests share
 * the process's bound of test conversations. A run whose worker died is carried out again by
 * another; a finished run is left as it is.
 */
export const testRunJob = defineJob<{ runId: number }>({
  name: 'tests.run',
  batchSize: 1,
  pollingIntervalSeconds: 0.5,
  handle: async ({ runId }) => carryOutTestRun(await getEngineDeps(), runId),
});

/** What the UI's procedures hand to runTestSuite: the run is the worker's. */
export async function queueTestRun(runId: number): Promise<void> {
  await enqueue(testRunJob, { runId }, { retryLimit: 1 });
}
