'use client';

import { useMutation } from '@tanstack/react-query';
import { FlaskConical, Plus, X } from 'lucide-react';
import { useState } from 'react';
import { useProjectId } from '@/components/projects/use-project-id';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import type { BlockRequest } from '@/lib/schema';
import { filledSamples, type SampleValue, sampleRows } from './sample-values';
import { TestResult } from './test-result';

/**
 * "Test request": the request as it stands in the form, sent by the server's safe client with
 * sample values for its variables (the project's constants fill the rest).
 */
export function RequestTester({ request, onPick }: { request: BlockRequest; onPick(path: string): void }) {
  const trpc = useTRPC();
  const projectId = useProjectId();
  const test = useMutation(trpc.requestTest.run.mutationOptions());
  const [rows, setRows] = useState<SampleValue[]>([]);
  const shown = sampleRows(request, rows);
  const edit = (index: number, patch: Partial<SampleValue>) =>
    setRows(shown.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  return (
    <div className="space-y-2 rounded-md border border-slate-200 bg-slate-50/60 p-2">
      <p className="text-xs font-medium text-slate-700">Sample values for the test</p>
      {shown.length ? (
        <ul className="space-y-1">
          {shown.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
            <li key={i} className="flex items-center gap-1">
              <div className="w-2/5 shrink-0">
                <Input
                  aria-label={`Sample ${i + 1} name`}
                  value={row.name}
                  placeholder="variable"
                  className="h-8 px-2 font-mono text-xs"
                  onChange={(e) => edit(i, { name: e.target.value })}
                />
              </div>
              <span className="text-slate-400">=</span>
              <div className="min-w-0 flex-1">
                <Input
                  aria-label={row.name.trim() ? `Value of ${row.name.trim()}` : `Sample ${i + 1} value`}
                  value={row.value}
                  className="h-8 px-2 text-xs"
                  onChange={(e) => edit(i, { value: e.target.value })}
                />
              </div>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove sample ${i + 1}`}
                onClick={() => setRows(shown.filter((_, j) => j !== i))}
              >
                <X className="size-3.5" aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex items-center justify-between gap-2">
        <Button variant="ghost" size="sm" onClick={() => setRows([...shown, { name: '', value: '' }])}>
          <Plus className="size-3.5" aria-hidden /> Add a value
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={projectId === null || test.isPending}
          onClick={() =>
            projectId !== null && test.mutate({ projectId, request, samples: filledSamples(shown) })
          }
        >
          <FlaskConical className="size-3.5" aria-hidden /> {test.isPending ? 'Sending…' : 'Test request'}
        </Button>
      </div>
      {test.error ? <Alert tone="error">{test.error.message}</Alert> : null}
      {test.data && !test.isPending ? <TestResult result={test.data} onPick={onPick} /> : null}
    </div>
  );
}
