'use client';

import { Timer } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { leftBlockOf, type SimulatorTimerRow } from './timer-status';

/** One of the test client's timers in the Variables tab: when it fires, or why it will not. */
export function SimulatorTimer({
  timer,
  currentBlockId,
  onFireNow,
}: {
  timer: SimulatorTimerRow & { kind: string; runAt: Date };
  currentBlockId: number | null;
  onFireNow(): void;
}) {
  const left = leftBlockOf(timer, currentBlockId);
  const at = new Date(timer.runAt).toLocaleTimeString();
  return (
    <div
      className={cn(
        'flex items-center justify-between gap-2 rounded px-2 py-1',
        left === null ? 'bg-amber-50' : 'bg-slate-100 text-slate-500',
      )}
    >
      <span className="flex items-center gap-1.5">
        {/* An SVG icon: the ⏱ emoji is an empty box on systems without an emoji font. */}
        <Timer className="size-3.5 shrink-0" aria-hidden />
        {left === null ? (
          `${timer.kind} at ${at}`
        ) : (
          <span>
            <s>
              {timer.kind} at {at}
            </s>{' '}
            cancelled: the client left block #{left}
          </span>
        )}
      </span>
      {left === null ? (
        <Button size="sm" variant="secondary" onClick={onFireNow}>
          Fire now
        </Button>
      ) : null}
    </div>
  );
}
