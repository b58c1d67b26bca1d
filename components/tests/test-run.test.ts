import { describe, expect, it } from 'vitest';
import type { TestReport, TestResult } from '@/lib/conversation-tests/results';
import { issueText } from './test-draft';
import { mergeReports, resultText } from './test-run';

const result = (testId: number, passed: boolean, failedStep: number | null = null): TestResult => ({
  testId,
  name: `Test ${testId}`,
  passed,
  failedStep,
  difference: null,
  steps: [],
  ms: 5,
});
const report = (version: number, results: TestResult[], blocks: number[], arrows: number[]): TestReport => ({
  version,
  startedAt: '2026-01-05T09:00:00.000Z',
  ms: 10,
  passed: results.filter((r) => r.passed).length,
  failed: results.filter((r) => !r.passed).length,
  results,
  coverage: { blocks, arrows, blockTotal: 10, arrowTotal: 8 },
});

describe('resultText', () => {
  it('numbers steps from 1', () => {
    expect(resultText(undefined)).toBe('not run yet');
    expect(resultText(result(1, true))).toBe('passed');
    expect(resultText(result(1, false, 2))).toBe('failed at step 3');
    expect(resultText(result(1, false))).toBe('failed');
  });
});

describe('mergeReports', () => {
  it('puts one test’s new result over the last report and joins coverage', () => {
    const before = report(0, [result(1, true), result(2, false, 0)], [1, 2], [1]);
    const merged = mergeReports(before, report(0, [result(2, true)], [2, 5], [3]));
    expect(merged.results.map((r) => [r.testId, r.passed])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect([merged.passed, merged.failed]).toEqual([2, 0]);
    expect(merged.coverage.blocks).toEqual([1, 2, 5]);
    expect(merged.coverage.arrows).toEqual([1, 3]);
  });

  it('replaces a report of another version, or none', () => {
    const run = report(2, [result(1, true)], [1], []);
    expect(mergeReports(report(0, [result(3, true)], [4], []), run)).toBe(run);
    expect(mergeReports(null, run)).toBe(run);
  });
});

describe('issueText', () => {
  it('names the field as the server does', () => {
    expect(issueText({ path: ['steps', 1, 'action', 'text'], message: 'The text is empty.' })).toBe(
      'steps[1].action.text: The text is empty.',
    );
    expect(issueText({ path: [], message: 'Bad.' })).toBe('Bad.');
  });
});
