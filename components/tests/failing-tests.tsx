'use client';

import type { TestReport } from '@/lib/conversation-tests/results';
import { TestDifference } from './test-difference';
import { resultText } from './test-run';

/** The tests a publish ran and found failing: each one's name, failed step and difference. */
export function FailingTests({ report }: { report: TestReport }) {
  const failed = report.results.filter((r) => !r.passed);
  return (
    <div className="space-y-2" data-testid="failing-tests">
      <p className="text-sm text-red-800">
        {failed.length} of {report.results.length} {report.results.length === 1 ? 'test fails' : 'tests fail'}{' '}
        with the draft, so nothing was published. Fix the bot (the Tests panel shows the blocks concerned), or
        publish anyway with a note saying why.
      </p>
      <ul className="max-h-64 space-y-2 overflow-y-auto">
        {failed.map((r) => (
          <li key={r.testId} className="space-y-1 rounded-md border border-red-200 p-2">
            <p className="text-sm">
              <span className="font-medium text-slate-900">{r.name}</span>{' '}
              <span className="text-xs text-red-700">{resultText(r)}</span>
            </p>
            {r.difference ? <TestDifference difference={r.difference} /> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
