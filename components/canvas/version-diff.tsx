'use client';

import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Eye } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { arrowKindLabels } from '@/components/arrow-editor/arrow-editor';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Select } from '@/components/ui/input';
import {
  type BlockRef,
  type BotDiff,
  diffCounts,
  type FieldChange,
  formatDiffValue,
  type VersionSide,
  versionSideLabel,
} from '@/lib/versions/bot-diff';
import { blockKindStyle } from './block-colors';
import { type DiffMarks, diffMarksOf } from './diff-marks';

const STATUS = {
  added: { label: 'Added', className: 'bg-emerald-100 text-emerald-800' },
  changed: { label: 'Changed', className: 'bg-amber-100 text-amber-900' },
  removed: { label: 'Removed', className: 'bg-red-100 text-red-800' },
} as const;
type Status = keyof typeof STATUS;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Entries shown of each list: a whole imported bot against the one before is thousands. */
const SHOWN = 300;

function More({ total, what }: { total: number; what: string }) {
  if (total <= SHOWN) return null;
  return (
    <p className="text-xs text-slate-500">
      …and {total - SHOWN} more {what}. Export both versions to compare them in full.
    </p>
  );
}

/**
 * What changed between two versions, or a version and the draft: the counts, then each block and
 * arrow with its changed fields before and after; blocks only moved, folded away at the end.
 */
export function VersionDiff({
  projectId,
  versions,
  draftVersion,
  from,
  to,
  onPick,
  onBack,
  onShowOnCanvas,
}: {
  projectId: number;
  /** The published versions' numbers, newest first. */
  versions: readonly number[];
  /** The version the draft is (nothing changed since it was published), or null. */
  draftVersion: number | null;
  from: VersionSide;
  to: VersionSide;
  onPick(from: VersionSide, to: VersionSide): void;
  onBack(): void;
  onShowOnCanvas(marks: DiffMarks): void;
}) {
  const trpc = useTRPC();
  const result = useQuery(trpc.versions.diff.queryOptions({ projectId, from, to }));
  const diff = result.data?.diff;
  const fromId = useId();
  const toId = useId();
  const options = [
    { value: 'draft', label: 'The draft (unpublished changes)' },
    ...versions.map((n) => ({ value: String(n), label: `Version ${n}` })),
    { value: '0', label: 'Nothing (before version 1)' },
  ];
  const parse = (value: string): VersionSide => (value === 'draft' ? 'draft' : Number(value));
  return (
    <div className="flex min-h-0 flex-col gap-3" data-testid="version-diff">
      <div className="flex flex-wrap items-end gap-2 text-sm">
        <Button size="sm" variant="ghost" onClick={onBack} aria-label="Back to the versions">
          <ArrowLeft className="size-3.5" aria-hidden />
          Versions
        </Button>
        <label htmlFor={fromId} className="flex flex-col gap-0.5 text-xs text-slate-600">
          From (older)
          <Select
            id={fromId}
            className="h-8 w-52"
            value={String(from)}
            onChange={(e) => onPick(parse(e.target.value), to)}
          >
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        </label>
        <label htmlFor={toId} className="flex flex-col gap-0.5 text-xs text-slate-600">
          To (newer)
          <Select
            id={toId}
            className="h-8 w-52"
            value={String(to)}
            onChange={(e) => onPick(from, parse(e.target.value))}
          >
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        </label>
      </div>
      {result.error ? <Alert tone="error">{result.error.message}</Alert> : null}
      {!diff ? (
        result.error ? null : (
          <p className="text-sm text-slate-500">Comparing…</p>
        )
      ) : (
        <DiffBody
          diff={diff}
          from={from}
          to={to}
          onShowOnCanvas={() =>
            onShowOnCanvas(diffMarksOf(diff, from, to, to === 'draft' || to === draftVersion))
          }
        />
      )}
    </div>
  );
}

function DiffBody({
  diff,
  from,
  to,
  onShowOnCanvas,
}: {
  diff: BotDiff;
  from: VersionSide;
  to: VersionSide;
  onShowOnCanvas(): void;
}) {
  const counts = diffCounts(diff);
  const summary = [
    counts.blocksAdded && `${plural(counts.blocksAdded, 'block')} added`,
    counts.blocksChanged && `${plural(counts.blocksChanged, 'block')} changed`,
    counts.blocksRemoved && `${plural(counts.blocksRemoved, 'block')} removed`,
    counts.arrowsAdded && `${plural(counts.arrowsAdded, 'arrow')} added`,
    counts.arrowsChanged && `${plural(counts.arrowsChanged, 'arrow')} changed`,
    counts.arrowsRemoved && `${plural(counts.arrowsRemoved, 'arrow')} removed`,
    counts.botChanged && `${plural(counts.botChanged, 'bot setting')} changed`,
  ].filter(Boolean);
  const blocks: { status: Status; block: BlockRef; changes?: FieldChange[]; moved?: boolean }[] = [
    ...diff.blocks.changed.map((b) => ({
      status: 'changed' as const,
      block: b,
      changes: b.changes,
      moved: b.moved,
    })),
    ...diff.blocks.added.map((b) => ({ status: 'added' as const, block: b })),
    ...diff.blocks.removed.map((b) => ({ status: 'removed' as const, block: b })),
  ];
  const arrows = [
    ...diff.arrows.changed.map((a) => ({ status: 'changed' as const, arrow: a, changes: a.changes })),
    ...diff.arrows.added.map((a) => ({ status: 'added' as const, arrow: a, changes: undefined })),
    ...diff.arrows.removed.map((a) => ({ status: 'removed' as const, arrow: a, changes: undefined })),
  ];
  const markable = counts.blocksAdded + counts.blocksChanged + counts.blocksRemoved > 0;
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <p className="min-w-0 flex-1 text-sm text-slate-800" data-testid="diff-summary">
          {counts.total === 0
            ? counts.blocksMoved
              ? `Only the layout changed from ${versionSideLabel(from)} to ${versionSideLabel(to)}: clients see no difference.`
              : `No differences: ${versionSideLabel(from)} and ${versionSideLabel(to)} are the same bot.`
            : `From ${versionSideLabel(from)} to ${versionSideLabel(to)}: ${summary.join(', ')}.`}
        </p>
        {markable ? (
          <Button
            size="sm"
            variant="secondary"
            onClick={onShowOnCanvas}
            title="Close this window and outline the added blocks green and the changed ones amber on the canvas"
          >
            <Eye className="size-3.5" aria-hidden />
            Show on canvas
          </Button>
        ) : null}
      </div>
      {counts.blocksChanged + counts.arrowsChanged + counts.botChanged ? (
        <p className="-mt-1 text-xs text-slate-500">
          Each changed field shows its value before, in red, and after, in green.
        </p>
      ) : null}
      <div className="flex max-h-[60vh] flex-col gap-2 overflow-auto pr-1">
        {diff.bot.length ? (
          <Entry status="changed" title="Bot settings">
            <Changes changes={diff.bot} />
          </Entry>
        ) : null}
        {blocks.length ? (
          <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Blocks</h3>
        ) : null}
        {blocks.slice(0, SHOWN).map(({ status, block, changes, moved }) => (
          <Entry
            key={`b${block.id}`}
            status={status}
            testId={`diff-block-${block.id}`}
            title={
              <>
                <span className="font-mono text-xs text-slate-500">#{block.id}</span>{' '}
                {block.name || <span className="text-slate-400">Untitled</span>}
                <span className="ml-1.5 text-xs font-normal text-slate-500">
                  {blockKindStyle[block.kind].label}
                </span>
                {moved ? (
                  <span className="ml-1.5 text-xs font-normal text-slate-400">· also moved</span>
                ) : null}
              </>
            }
          >
            {changes ? <Changes changes={changes} /> : null}
          </Entry>
        ))}
        <More total={blocks.length} what="blocks" />
        {arrows.length ? (
          <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Arrows</h3>
        ) : null}
        {arrows.slice(0, SHOWN).map(({ status, arrow, changes }) => (
          <Entry
            key={`a${arrow.id}`}
            status={status}
            testId={`diff-arrow-${arrow.id}`}
            title={
              <>
                <span className="font-mono text-xs text-slate-500">arrow #{arrow.id}</span> {arrow.from} →{' '}
                {arrow.to}
                <span className="ml-1.5 text-xs font-normal text-slate-500">
                  {arrowKindLabels[arrow.kind]}
                </span>
              </>
            }
          >
            {changes ? <Changes changes={changes} /> : null}
          </Entry>
        ))}
        <More total={arrows.length} what="arrows" />
        {diff.blocks.moved.length ? (
          <details className="text-xs text-slate-600" data-testid="diff-moved">
            <summary className="cursor-pointer">
              {plural(diff.blocks.moved.length, 'block')} only moved on the canvas (clients see no difference)
            </summary>
            <ul className="mt-1 ml-4 list-disc">
              {diff.blocks.moved.slice(0, SHOWN).map((b) => (
                <li key={b.id}>
                  #{b.id} {b.name}
                </li>
              ))}
            </ul>
            <More total={diff.blocks.moved.length} what="moved blocks" />
          </details>
        ) : null}
      </div>
    </>
  );
}

function Entry({
  status,
  title,
  testId,
  children,
}: {
  status: Status;
  title: ReactNode;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <section
      className="rounded-md border border-slate-200 px-3 py-2"
      data-testid={testId}
      data-status={status}
    >
      <div className="flex items-baseline gap-2 text-sm font-medium">
        <span className={cn('rounded px-1.5 text-xs', STATUS[status].className)}>{STATUS[status].label}</span>
        <span className="min-w-0 flex-1 break-words">{title}</span>
      </div>
      {children}
    </section>
  );
}

/** Each changed field: its path, then the value before and after, side by side. */
function Changes({ changes }: { changes: FieldChange[] }) {
  return (
    <dl className="mt-1.5 flex flex-col gap-1.5">
      {changes.map((c) => (
        <div key={c.path} data-field={c.path}>
          <dt className="font-mono text-xs text-slate-600">{c.path}</dt>
          <dd className="grid grid-cols-2 gap-1.5 text-xs">
            <Value tone="before" value={c.before} />
            <Value tone="after" value={c.after} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Value({ tone, value }: { tone: 'before' | 'after'; value: unknown }) {
  return (
    <div
      className={cn(
        'max-h-32 overflow-auto rounded px-1.5 py-0.5 break-words whitespace-pre-wrap',
        tone === 'before' ? 'bg-red-50 text-red-900' : 'bg-emerald-50 text-emerald-900',
        value === undefined && 'italic opacity-70',
      )}
    >
      <span className="sr-only">{tone === 'before' ? 'Before: ' : 'After: '}</span>
      {formatDiffValue(value)}
    </div>
  );
}
