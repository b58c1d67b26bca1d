'use client';

import { type Coverage, coveredShare } from '@/lib/conversation-tests/results';

/** What the coverage overlay's marks mean, over the canvas while it is on. */
export function CoverageLegend({ coverage, version }: { coverage: Coverage; version: number }) {
  return (
    <div
      className="pointer-events-none absolute bottom-3 left-1/2 z-20 w-max max-w-[70%] -translate-x-1/2 rounded-md border border-slate-200 bg-white/95 px-3 py-1.5 text-xs text-slate-700 shadow-md"
      data-testid="coverage-legend"
    >
      <span className="font-medium text-slate-900">
        Test coverage{version ? ` of version ${version}` : ''}:
      </span>{' '}
      {coveredShare(coverage)}% of blocks, {coverage.arrows.length} of {coverage.arrowTotal} arrows.{' '}
      <span className="mr-1 inline-block size-2.5 rounded-sm bg-emerald-600 align-middle" aria-hidden />
      covered; faded: no test passes there.
    </div>
  );
}
