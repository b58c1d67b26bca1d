'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FlaskConical, Plus } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Select } from '@/components/ui/input';
import { type Coverage, coveredShare, type TestReport } from '@/lib/conversation-tests/results';
import type { ConversationTest } from '@/lib/conversation-tests/test-case';
import { TestForm } from './test-form';
import { TestListItem } from './test-list-item';
import { mergeReports, type RunTarget } from './test-run';

/**
 * The builder's Tests panel, beside the simulator (docs/conversation-tests.md, "In the builder"):
 * the draft's tests with their last result against the draft or a version, Run all and run one,
 * the first difference of a failed test with its block, coverage (drawn on the canvas when asked)
 * and the test form.
 */
export function TestsPanel({
  projectId,
  canEdit,
  opened,
  onShowBlock,
  onCoverage,
}: {
  projectId: number;
  /** Owners and admins write tests; everyone may run them. */
  canEdit: boolean;
  /** A test to open in the form (a new object each time: the simulator's Save as test). */
  opened: { test: ConversationTest } | null;
  onShowBlock(id: number): void;
  /** The coverage to draw on the canvas, null for none. */
  onCoverage(coverage: { coverage: Coverage; version: number } | null): void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ids = { target: useId(), coverage: useId() };
  const [target, setTarget] = useState<RunTarget>('draft');
  const [editing, setEditing] = useState<ConversationTest | 'new' | null>(null);
  const [showCoverage, setShowCoverage] = useState(false);
  useEffect(() => {
    if (opened) setEditing(opened.test);
  }, [opened]);

  const tests = useQuery(trpc.tests.list.queryOptions({ projectId }));
  const versions = useQuery(trpc.versions.list.queryOptions({ projectId }));
  const lastRun = useQuery(trpc.tests.lastRun.queryOptions({ projectId, version: target }));
  const run = useMutation(
    trpc.tests.run.mutationOptions({
      onSuccess: (report, input) =>
        queryClient.setQueryData<TestReport | null>(
          trpc.tests.lastRun.queryKey({ projectId, version: input.version }),
          (before) => (input.testIds ? mergeReports(before, report) : report),
        ),
    }),
  );
  const report = lastRun.data ?? null;
  const coverage = report?.coverage;
  useEffect(() => {
    onCoverage(showCoverage && report ? { coverage: report.coverage, version: report.version } : null);
  }, [showCoverage, report, onCoverage]);
  useEffect(() => () => onCoverage(null), [onCoverage]);

  const refreshList = () =>
    queryClient.invalidateQueries({ queryKey: trpc.tests.list.queryKey({ projectId }) });
  if (editing)
    return (
      <TestsShell>
        <TestForm
          // A recorded test opening over another one's form starts afresh.
          key={editing === 'new' ? 'new' : editing.id}
          projectId={projectId}
          test={editing === 'new' ? null : editing}
          onDone={(saved) => {
            setEditing(null);
            if (saved) void refreshList();
          }}
        />
      </TestsShell>
    );

  const list = tests.data ?? [];
  const results = new Map(report?.results.map((r) => [r.testId, r]));
  const running = run.isPending ? (run.variables?.testIds ?? 'all') : null;
  return (
    <TestsShell
      action={
        canEdit ? (
          <Button size="sm" variant="secondary" onClick={() => setEditing('new')}>
            <Plus className="size-3.5" aria-hidden />
            New test
          </Button>
        ) : null
      }
    >
      {tests.error ? <Alert tone="error">{tests.error.message}</Alert> : null}
      {tests.isLoading ? <p className="px-3 py-2 text-sm text-slate-500">Loading the tests…</p> : null}
      {tests.data && list.length === 0 ? (
        <div className="space-y-2 px-4 py-6 text-center text-sm text-slate-500" role="note">
          <FlaskConical className="mx-auto size-6 text-slate-400" aria-hidden />
          <p className="font-medium text-slate-700">No tests yet</p>
          <p>
            A test replays a conversation and checks that the bot still answers the same. Talk to the bot in
            the simulator and press <strong>Save as test</strong>, or write one with <strong>New test</strong>
            .
          </p>
        </div>
      ) : null}
      {list.length ? (
        <>
          <div className="flex flex-wrap items-end gap-2 border-b border-slate-100 px-3 py-2">
            <label
              htmlFor={ids.target}
              className="flex min-w-0 flex-1 flex-col gap-0.5 text-xs text-slate-600"
            >
              Run against
              <Select
                id={ids.target}
                className="h-8 px-2"
                value={String(target)}
                onChange={(e) => setTarget(e.target.value === 'draft' ? 'draft' : Number(e.target.value))}
              >
                <option value="draft">Draft</option>
                {versions.data?.map((v) => (
                  <option key={v.number} value={v.number}>
                    Version {v.number}
                    {v.note ? `: ${v.note}` : ''}
                  </option>
                ))}
              </Select>
            </label>
            <Button
              size="sm"
              onClick={() => run.mutate({ projectId, version: target })}
              disabled={run.isPending}
            >
              {running === 'all' ? 'Running…' : 'Run all'}
            </Button>
          </div>
          {run.error ? <Alert tone="error">{run.error.message}</Alert> : null}
          {report && coverage ? (
            <div className="space-y-1 border-b border-slate-100 px-3 py-2 text-xs text-slate-600">
              <p data-testid="tests-summary">
                Last run{report.version ? ` (version ${report.version})` : ''}:{' '}
                <span className={cn('font-medium', report.passed ? 'text-emerald-700' : 'text-slate-700')}>
                  {report.passed} passed
                </span>
                {report.failed ? (
                  <>
                    , <span className="font-medium text-red-700">{report.failed} failed</span>
                  </>
                ) : null}{' '}
                · {new Date(report.startedAt).toLocaleString()}
              </p>
              <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                <span data-testid="tests-coverage">
                  Covers {coveredShare(coverage)}% of blocks ({coverage.blocks.length} of{' '}
                  {coverage.blockTotal}), {coverage.arrows.length} of {coverage.arrowTotal} arrows
                </span>
                <label htmlFor={ids.coverage} className="flex items-center gap-1.5">
                  <input
                    id={ids.coverage}
                    type="checkbox"
                    checked={showCoverage}
                    onChange={(e) => setShowCoverage(e.target.checked)}
                  />
                  Show coverage on the canvas
                </label>
              </div>
            </div>
          ) : null}
          <ul className="divide-y divide-slate-100" data-testid="tests-list">
            {list.map((test) => (
              <TestListItem
                key={test.id}
                projectId={projectId}
                test={test}
                result={results.get(test.id)}
                canEdit={canEdit}
                running={running === 'all' || (Array.isArray(running) && running.includes(test.id))}
                onRun={() => run.mutate({ projectId, version: target, testIds: [test.id] })}
                onEdit={() => setEditing(test)}
                onDeleted={refreshList}
                onShowBlock={onShowBlock}
              />
            ))}
          </ul>
        </>
      ) : null}
    </TestsShell>
  );
}

function TestsShell({ action, children }: { action?: ReactNode; children: ReactNode }) {
  return (
    <aside
      className="flex h-full w-96 max-w-[calc(100vw-2.25rem)] shrink-0 flex-col border-l border-slate-200 bg-white"
      aria-label="Tests"
    >
      <div className="flex h-11 items-center justify-between border-b border-slate-200 px-3">
        <h2 className="text-sm font-semibold">Tests</h2>
        {action}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
    </aside>
  );
}
