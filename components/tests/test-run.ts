import type { TestReport, TestResult } from '@/lib/conversation-tests/results';

/** What a run is against: the draft, or a published version by number. */
export type RunTarget = 'draft' | number;

/** How a test's last result reads in the list. */
export function resultText(result: TestResult | undefined): string {
  if (!result) return 'not run yet';
  if (result.passed) return 'passed';
  return result.failedStep === null ? 'failed' : `failed at step ${result.failedStep + 1}`;
}

/**
 * The report after running some of the tests: their new results over the last report's (a run
 * of one test must not make the others look never run), coverage joined. A report of another
 * version is replaced.
 */
export function mergeReports(before: TestReport | null | undefined, run: TestReport): TestReport {
  if (!before || before.version !== run.version) return run;
  const ran = new Set(run.results.map((r) => r.testId));
  const results = [...before.results.filter((r) => !ran.has(r.testId)), ...run.results];
  const union = (a: number[], b: number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y);
  return {
    ...run,
    passed: results.filter((r) => r.passed).length,
    failed: results.filter((r) => !r.passed).length,
    results,
    coverage: {
      ...run.coverage,
      blocks: union(before.coverage.blocks, run.coverage.blocks),
      arrows: union(before.coverage.arrows, run.coverage.arrows),
    },
  };
}
