'use client';

import { useMutation } from '@tanstack/react-query';
import { CheckCircle2, CircleDashed, Pencil, Play, Trash2, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { IconButton } from '@/components/ui/icon-button';
import type { TestResult } from '@/lib/conversation-tests/results';
import type { ConversationTest } from '@/lib/conversation-tests/test-case';
import { TestDifference } from './test-difference';
import { resultText } from './test-run';

/** One test in the Tests panel: its last result, Run, Edit and Delete, and a failure's difference. */
export function TestListItem({
  projectId,
  test,
  result,
  canEdit,
  running,
  onRun,
  onEdit,
  onDeleted,
  onShowBlock,
}: {
  projectId: number;
  test: ConversationTest;
  result: TestResult | undefined;
  canEdit: boolean;
  running: boolean;
  onRun(): void;
  onEdit(): void;
  onDeleted(): void;
  onShowBlock(id: number): void;
}) {
  const trpc = useTRPC();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(trpc.tests.delete.mutationOptions({ onSuccess: onDeleted }));
  const Icon = !result ? CircleDashed : result.passed ? CheckCircle2 : XCircle;
  return (
    <li
      className="space-y-2 px-3 py-2"
      data-testid={`test-${test.id}`}
      data-result={result ? (result.passed ? 'passed' : 'failed') : 'none'}
    >
      <div className="flex items-start gap-2">
        <Icon
          className={cn(
            'mt-0.5 size-4 shrink-0',
            !result ? 'text-slate-400' : result.passed ? 'text-emerald-600' : 'text-red-600',
          )}
          aria-hidden
        />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-slate-900" title={test.name}>
            {test.name}
          </p>
          <p
            className={cn('text-xs', result && !result.passed ? 'text-red-700' : 'text-slate-500')}
            data-testid="test-result"
          >
            {running ? 'running…' : resultText(result)}
            {' · '}
            {test.steps.length} {test.steps.length === 1 ? 'step' : 'steps'}
          </p>
        </div>
        <div className="flex shrink-0 items-center">
          <IconButton label={`Run ${test.name}`} onClick={onRun} disabled={running}>
            <Play className="size-3.5" aria-hidden />
          </IconButton>
          {canEdit ? (
            <>
              <IconButton label={`Edit ${test.name}`} onClick={onEdit}>
                <Pencil className="size-3.5" aria-hidden />
              </IconButton>
              <IconButton label={`Delete ${test.name}`} onClick={() => setConfirming(true)}>
                <Trash2 className="size-3.5" aria-hidden />
              </IconButton>
            </>
          ) : null}
        </div>
      </div>
      {confirming ? (
        <div className="flex items-center gap-2 rounded bg-red-50 px-2 py-1 text-xs text-red-900">
          <span className="flex-1">Delete this test?</span>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
            Keep
          </Button>
          <Button
            size="sm"
            variant="danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ projectId, id: test.id })}
          >
            Delete
          </Button>
        </div>
      ) : null}
      {remove.error ? <Alert tone="error">{remove.error.message}</Alert> : null}
      {result?.difference && !running ? (
        <div className="ml-6">
          <TestDifference difference={result.difference} onShowBlock={onShowBlock} />
        </div>
      ) : null}
    </li>
  );
}
