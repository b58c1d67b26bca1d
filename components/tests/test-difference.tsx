'use client';

import { Crosshair } from 'lucide-react';
import type { Difference } from '@/lib/conversation-tests/results';

/**
 * The first thing a failed test found different (docs/conversation-tests.md): its sentence, then
 * expected beside actual, and the block concerned, which a click shows on the canvas.
 */
export function TestDifference({
  difference,
  onShowBlock,
}: {
  difference: Difference;
  /** Absent where there is no canvas to show it on. */
  onShowBlock?(id: number): void;
}) {
  const blockId = difference.blockId;
  return (
    <div className="space-y-1.5 text-xs" data-testid="test-difference">
      <p className="text-slate-700">{difference.message}</p>
      <div className="grid grid-cols-2 gap-1.5">
        <Side title="Expected" text={difference.expected} className="border-emerald-200 bg-emerald-50" />
        <Side title="Actual" text={difference.actual} className="border-red-200 bg-red-50" />
      </div>
      <p className="flex flex-wrap items-center gap-2 text-slate-500">
        <span className="font-mono">{difference.field}</span>
        {blockId !== null && onShowBlock ? (
          <button
            type="button"
            onClick={() => onShowBlock(blockId)}
            className="inline-flex items-center gap-1 font-medium text-brand-700 hover:underline"
            title="Select this block on the canvas"
          >
            <Crosshair className="size-3" aria-hidden />
            Show block #{blockId}
          </button>
        ) : blockId !== null ? (
          <span>block #{blockId}</span>
        ) : null}
      </p>
    </div>
  );
}

function Side({ title, text, className }: { title: string; text: string; className: string }) {
  return (
    <div className={`min-w-0 rounded border px-2 py-1 ${className}`}>
      <p className="font-semibold text-slate-600">{title}</p>
      <p className="break-words whitespace-pre-wrap text-slate-900">
        {text || <span className="text-slate-400">(nothing)</span>}
      </p>
    </div>
  );
}
