'use client';

import { Timer } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** One of the test client's pending timers in the Variables tab: when it fires, and Fire now. */
export function SimulatorTimer({
  timer,
  onFireNow,
}: {
  timer: { kind: string; runAt: Date };
  onFireNow(): void;
}) {
  const at = new Date(timer.runAt).toLocaleTimeString();
  return (
    <div className="flex items-center justify-between gap-2 rounded bg-amber-50 px-2 py-1">
      <span className="flex items-center gap-1.5">
        {/* An SVG icon: the ⏱ emoji is an empty box on systems without an emoji font. */}
        <Timer className="size-3.5 shrink-0" aria-hidden />
        {`${timer.kind} at ${at}`}
      </span>
      <Button size="sm" variant="secondary" onClick={onFireNow}>
        Fire now
      </Button>
    </div>
  );
}
