'use client';

import { useQuery } from '@tanstack/react-query';
import { BarChart3, Plus, X } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { type FunnelStep, funnelRows } from '@/lib/analytics/funnel';
import { analyticsQuerySchema, dayInZone } from '@/lib/analytics/query';
import { countFormat } from '@/lib/number-format';
import { BLOCK_KIND_RULES, type Block } from '@/lib/schema';
import type { AnalyticsStore } from './analytics-overlay';

const RANGES = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: 'custom', label: 'Custom range' },
] as const;

const STOPPED_AFTER = [
  { minutes: 30, label: '30 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 60 * 24, label: '1 day' },
  { minutes: 60 * 24 * 3, label: '3 days' },
  { minutes: 60 * 24 * 7, label: '7 days' },
];

const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });

/**
 * The canvas's analytics (docs/analytics.md): a published version's figures over a range of
 * days, drawn on the blocks and arrows while this panel is open, and a funnel between steps the
 * designer picks (blocks, CRM stages, submissions).
 */
export function AnalyticsPanel({
  projectId,
  blocks,
  store,
  onVersionShown,
  shownVersion,
}: {
  projectId: number;
  /** The blocks on the canvas: the draft's, or the shown version's own. */
  blocks: readonly Block[];
  store: AnalyticsStore;
  /** The version whose figures are drawn (null: none, the panel is closed). */
  onVersionShown(version: number | null): void;
  /** The version whose own blocks the canvas shows instead of the draft's. */
  shownVersion: number | null;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="absolute top-2 right-2 z-20 flex flex-col items-end gap-2">
      <Button
        variant="secondary"
        size="sm"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        title="How many clients entered each block, followed each arrow and stopped where"
      >
        <BarChart3 className="size-3.5" aria-hidden />
        Analytics
      </Button>
      {open ? (
        <AnalyticsBody
          id={panelId}
          projectId={projectId}
          blocks={blocks}
          store={store}
          onVersionShown={onVersionShown}
          shownVersion={shownVersion}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </div>
  );
}

function AnalyticsBody({
  id,
  projectId,
  blocks,
  store,
  onVersionShown,
  shownVersion,
  onClose,
}: {
  id: string;
  projectId: number;
  blocks: readonly Block[];
  store: AnalyticsStore;
  onVersionShown(version: number | null): void;
  shownVersion: number | null;
  onClose(): void;
}) {
  const trpc = useTRPC();
  const idBase = useId();
  const ids = Object.fromEntries(
    ['version', 'days', 'stopped', 'from', 'to', 'step', 'tests'].map((k) => [k, `${idBase}-${k}`]),
  ) as Record<'version' | 'days' | 'stopped' | 'from' | 'to' | 'step' | 'tests', string>;
  const versions = useQuery(trpc.versions.list.queryOptions({ projectId }));
  // "The last 30 days" are the project's days, as the counts are.
  const timeZone = useQuery(trpc.project.get.queryOptions({ projectId })).data?.timeZone ?? 'UTC';
  const dayBefore = (back: number) => dayInZone(new Date(), timeZone, back);
  const funnels = useQuery(trpc.crm.funnels.queryOptions({ projectId }));
  const [version, setVersion] = useState<number | undefined>(undefined);
  const [range, setRange] = useState<(typeof RANGES)[number]['value']>('30');
  const [custom, setCustom] = useState({ from: dayBefore(29), to: dayBefore(0) });
  const [stoppedAfterMinutes, setStoppedAfter] = useState(60);
  const [includeTests, setIncludeTests] = useState(false);
  const [steps, setSteps] = useState<FunnelStep[]>([]);

  const days = range === 'custom' ? custom : { from: dayBefore(Number(range) - 1), to: dayBefore(0) };
  const parsed = analyticsQuerySchema.safeParse({ version, ...days, stoppedAfterMinutes, includeTests });
  const analytics = useQuery({
    ...trpc.analytics.flow.queryOptions({
      projectId,
      ...(parsed.data ?? { ...days, stoppedAfterMinutes, includeTests }),
    }),
    enabled: parsed.success && (versions.data?.length ?? 0) > 0,
  });
  // The overlay shows while the panel is open, and goes with it.
  useEffect(() => {
    store.set(analytics.data ?? null);
  }, [store, analytics.data]);
  useEffect(() => () => store.set(null), [store]);
  // The canvas shows that version's own blocks while its figures are open; the draft's after.
  // The last answer's version, kept while another range loads (no flicker back to the draft).
  const figuresOf = analytics.data?.version;
  useEffect(() => {
    if (figuresOf !== undefined) onVersionShown(figuresOf);
  }, [onVersionShown, figuresOf]);
  useEffect(() => () => onVersionShown(null), [onVersionShown]);

  const names = useMemo(() => new Map(blocks.map((b) => [b.id, b.name || `Block #${b.id}`])), [blocks]);
  const stages = useMemo(
    () =>
      funnels.data?.flatMap((f) => f.stages.map((s) => ({ id: s.id, name: `${f.name}: ${s.name}` }))) ?? [],
    [funnels.data],
  );
  const stepName = (step: FunnelStep) =>
    step.kind === 'block'
      ? (names.get(step.id) ?? `Block #${step.id} (not in the draft)`)
      : step.kind === 'stage'
        ? `Deal reached ${stages.find((s) => s.id === step.id)?.name ?? `stage #${step.id}`}`
        : `Submitted in ${names.get(step.id) ?? `block #${step.id}`}`;
  const submitting = blocks.filter((b) => BLOCK_KIND_RULES[b.kind].submits);
  const rows = analytics.data ? funnelRows(analytics.data, steps) : [];
  const problem = parsed.success ? null : parsed.error.issues[0]?.message;
  const totals = analytics.data?.blocks.reduce(
    (sum, b) => ({
      entries: sum.entries + b.entries,
      stopped: sum.stopped + b.stopped,
      all: sum.all + b.allVersions.entries,
    }),
    { entries: 0, stopped: 0, all: 0 },
  );

  return (
    <section
      id={id}
      aria-label="Analytics"
      className="flex max-h-[calc(100vh-12rem)] w-[22rem] max-w-[85vw] flex-col gap-3 overflow-y-auto rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-lg"
    >
      <header className="flex items-center justify-between">
        <h2 className="font-semibold text-slate-800">Analytics</h2>
        <button type="button" aria-label="Close analytics" onClick={onClose}>
          <X className="size-4 text-slate-500" aria-hidden />
        </button>
      </header>
      {versions.data && versions.data.length === 0 ? (
        <p className="text-slate-600">
          Analytics count what clients do with a published version. Publish the bot, and its figures appear
          here and on the canvas as clients talk to it.
        </p>
      ) : (
        <>
          <Field id={ids.version} label="Version">
            <Select
              className="h-8 px-2"
              id={ids.version}
              value={version ?? ''}
              onChange={(e) => setVersion(e.target.value ? Number(e.target.value) : undefined)}
            >
              <option value="">The published version</option>
              {versions.data?.map((v) => (
                <option key={v.number} value={v.number}>
                  Version {v.number}
                  {v.note ? `: ${v.note}` : ''}
                </option>
              ))}
            </Select>
          </Field>
          <div className="grid grid-cols-2 gap-2">
            <Field id={ids.days} label="Days">
              <Select
                className="h-8 px-2"
                id={ids.days}
                value={range}
                onChange={(e) => setRange(e.target.value as typeof range)}
              >
                {RANGES.map((r) => (
                  <option key={r.value} value={r.value}>
                    {r.label}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id={ids.stopped} label="Stopped after">
              <Select
                className="h-8 px-2"
                id={ids.stopped}
                value={stoppedAfterMinutes}
                onChange={(e) => setStoppedAfter(Number(e.target.value))}
              >
                {STOPPED_AFTER.map((s) => (
                  <option key={s.minutes} value={s.minutes}>
                    {s.label}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <div className="flex flex-col gap-0.5 text-xs">
            <label className="flex items-center gap-2 text-slate-700">
              <input
                type="checkbox"
                aria-describedby={ids.tests}
                checked={includeTests}
                onChange={(e) => setIncludeTests(e.target.checked)}
              />
              Include test conversations
            </label>
            <p id={ids.tests} className="text-slate-500" data-testid="analytics-tests-note">
              {includeTests
                ? "The simulator's conversations are counted too (with the published version, or a draft with no unpublished changes)."
                : "Off: only your clients are counted, not the simulator's test conversations."}
            </p>
          </div>
          {range === 'custom' ? (
            <div className="grid grid-cols-2 gap-2">
              <Field id={ids.from} label="From">
                <Input
                  type="date"
                  className="h-8 px-2"
                  id={ids.from}
                  value={custom.from}
                  onChange={(e) => setCustom((c) => ({ ...c, from: e.target.value }))}
                />
              </Field>
              <Field id={ids.to} label="To">
                <Input
                  type="date"
                  className="h-8 px-2"
                  id={ids.to}
                  value={custom.to}
                  onChange={(e) => setCustom((c) => ({ ...c, to: e.target.value }))}
                />
              </Field>
            </div>
          ) : null}
          {problem ? <Alert tone="error">{problem}</Alert> : null}
          {analytics.error ? <Alert tone="error">{analytics.error.message}</Alert> : null}
          {analytics.data && totals ? (
            <p className="text-xs text-slate-600" data-testid="analytics-summary">
              Version {analytics.data.version}: {countFormat.format(totals.entries)} block entries,{' '}
              {countFormat.format(totals.stopped)} clients stopped; all versions:{' '}
              {countFormat.format(totals.all)} block entries
              {analytics.data.includeTests
                ? ', test conversations included'
                : ', test conversations left out'}
              . Each block shows its clients and how many stopped there, and its clients in every version;
              each arrow how often it was followed. Days are the project's time zone.
              {shownVersion !== null
                ? ` The canvas shows version ${shownVersion}'s own blocks, read-only; closing Analytics brings the draft back.`
                : ''}
              {analytics.data.behind
                ? ' Counting is catching up with a burst: figures grow for a minute.'
                : ''}
            </p>
          ) : analytics.isLoading ? (
            <p className="text-xs text-slate-500">Counting…</p>
          ) : null}

          <div className="flex flex-col gap-2 border-t border-slate-100 pt-3">
            <h3 className="font-medium text-slate-800">Funnel</h3>
            {steps.length === 0 ? (
              <p className="text-xs text-slate-600">
                Pick the blocks a client should pass, in order, and a CRM stage or a submission as the goal.
              </p>
            ) : (
              <ol className="flex flex-col gap-1" data-testid="funnel">
                {rows.map((row, i) => (
                  <li
                    key={`${row.step.kind}-${row.step.id}`}
                    className="flex items-center gap-2 rounded bg-slate-50 px-2 py-1"
                  >
                    <span className="min-w-0 flex-1 truncate" title={stepName(row.step)}>
                      {i + 1}. {stepName(row.step)}
                    </span>
                    <span className="tabular-nums font-medium">{countFormat.format(row.clients)}</span>
                    <span className="w-14 text-right text-xs tabular-nums text-slate-500">
                      {row.ofPrevious === null ? '' : percent.format(row.ofPrevious)}
                    </span>
                    <button
                      type="button"
                      aria-label={`Remove step ${i + 1}`}
                      onClick={() => setSteps((s) => s.filter((_, j) => j !== i))}
                    >
                      <X className="size-3.5 text-slate-400" aria-hidden />
                    </button>
                  </li>
                ))}
              </ol>
            )}
            {rows.length > 1 && rows.at(-1)?.ofFirst !== null ? (
              <p className="text-xs text-slate-600">
                Conversion from the first step: {percent.format(rows.at(-1)?.ofFirst ?? 0)}
              </p>
            ) : null}
            <div className="flex items-center gap-2">
              <Plus className="size-4 shrink-0 text-slate-500" aria-hidden />
              <label htmlFor={ids.step} className="sr-only">
                Add a funnel step
              </label>
              <Select
                className="h-8 px-2"
                id={ids.step}
                value=""
                onChange={(e) => {
                  const [kind, stepId] = e.target.value.split(':');
                  if (!stepId) return;
                  const step = { kind: kind as FunnelStep['kind'], id: Number(stepId) };
                  // A step is in the funnel once.
                  setSteps((s) =>
                    s.some((x) => x.kind === step.kind && x.id === step.id) ? s : [...s, step],
                  );
                }}
              >
                <option value="">Add a step…</option>
                <optgroup label="Blocks">
                  {blocks
                    .filter((b) => BLOCK_KIND_RULES[b.kind].runs)
                    .map((b) => (
                      <option key={b.id} value={`block:${b.id}`}>
                        #{b.id} {b.name || 'Untitled'}
                      </option>
                    ))}
                </optgroup>
                {stages.length ? (
                  <optgroup label="CRM stages">
                    {stages.map((s) => (
                      <option key={s.id} value={`stage:${s.id}`}>
                        {s.name}
                      </option>
                    ))}
                  </optgroup>
                ) : null}
                {submitting.length ? (
                  <optgroup label="Submissions">
                    {submitting.map((b) => (
                      <option key={b.id} value={`submission:${b.id}`}>
                        Submitted in #{b.id} {b.name || 'Untitled'}
                      </option>
                    ))}
                  </optgroup>
                ) : null}
              </Select>
            </div>
          </div>
        </>
      )}
    </section>
  );
}
