'use client';

import { memo } from 'react';
import { cn } from '@/components/ui/cn';
import { describeLogEntry, type LogTone } from './log-entry';

const toneClass: Record<LogTone, string> = {
  info: 'text-slate-700',
  error: 'text-red-700',
  timer: 'text-amber-700',
  request: 'text-sky-800',
  submission: 'text-emerald-700',
};

/** One line of the simulator log; its details (a request and reply, variables) open on click. */
export const SimulatorLogEntry = memo(function SimulatorLogEntry({
  kind,
  data,
}: {
  kind: string;
  data: unknown;
}) {
  const entry = describeLogEntry(kind, data);
  const title = <span className={cn('break-words', toneClass[entry.tone])}>{entry.title}</span>;
  if (!entry.details.length) return <li data-kind={kind}>{title}</li>;
  return (
    <li data-kind={kind}>
      <details>
        <summary className="cursor-pointer">{title}</summary>
        {entry.details.map((d) => (
          <div key={d.label} className="mt-1 ml-3">
            <p className="font-semibold text-slate-500">{d.label}</p>
            <pre className="max-h-48 overflow-auto rounded bg-slate-50 p-1 font-mono text-[11px] whitespace-pre-wrap break-all">
              {d.text}
            </pre>
          </div>
        ))}
      </details>
    </li>
  );
});
