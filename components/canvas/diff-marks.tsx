'use client';

import { X } from 'lucide-react';
import { type BlockRef, type BotDiff, type VersionSide, versionSideLabel } from '@/lib/versions/bot-diff';
import { edgeId } from './schema-to-flow';

/**
 * A comparison of versions marked on the canvas (docs/versions.md, "Comparing versions"):
 * added blocks outlined green, changed ones amber, each with a small label. Style rules by block
 * id, as the simulator's current block is outlined: no node re-renders, however big the bot.
 * Removed blocks are not on the canvas; the banner names them.
 */
export interface DiffMarks {
  /** `version 1 → version 2`, `version 3 → the draft`. */
  label: string;
  /** The newer side is the bot the canvas shows (the draft, or the version it is); else the marks go on its ids. */
  onDraft: boolean;
  added: number[];
  changed: number[];
  removed: BlockRef[];
  /** Arrows by id: their lines and labels take the same colours. */
  arrows: { added: number[]; changed: number[] };
  /**
   * The sides compared, so the marks are worked out again when the draft or the live version
   * changes; `followsLive`: the live version against the draft, which a publish moves on.
   */
  sides?: { from: VersionSide; to: VersionSide; followsLive?: boolean };
}

/** The marks of a comparison of two sides; `onDraft` when the newer side is what the canvas shows. */
export function diffMarksOf(diff: BotDiff, from: VersionSide, to: VersionSide, onDraft: boolean): DiffMarks {
  return {
    label: `from ${versionSideLabel(from)} to ${versionSideLabel(to)}`,
    onDraft,
    added: diff.blocks.added.map((b) => b.id),
    changed: diff.blocks.changed.map((b) => b.id),
    removed: diff.blocks.removed,
    arrows: {
      added: diff.arrows.added.map((a) => a.id),
      changed: diff.arrows.changed.map((a) => a.id),
    },
    sides: { from, to },
  };
}

const MARKS = {
  added: { colour: '#10b981', text: 'added' },
  changed: { colour: '#d97706', text: 'changed' },
} as const;

/** The style rules of the marks: an outline and a label above each block; arrows coloured alike. */
export function diffMarksCss(marks: DiffMarks): string {
  return (['added', 'changed'] as const)
    .map((status) => {
      const { colour, text } = MARKS[status];
      return arrowMarksCss(marks.arrows[status], colour) + blockMarksCss(marks[status], colour, text);
    })
    .filter(Boolean)
    .join('\n');
}

function blockMarksCss(ids: number[], colour: string, text: string): string {
  if (!ids.length) return '';
  const blocks = ids.map((id) => `[data-block-id="${id}"]`);
  const labels = ids.map((id) => `[data-block-id="${id}"]::after`);
  return (
    `${blocks.join(',')}{outline:3px solid ${colour};outline-offset:3px}` +
    `${labels.join(',')}{content:"${text}";position:absolute;top:-22px;left:0;padding:0 6px;` +
    `border-radius:4px;background:${colour};color:#fff;font:600 11px/16px system-ui,sans-serif;` +
    'text-transform:none;letter-spacing:0;pointer-events:none}'
  );
}

/** An arrow's line in the colour, thicker (over its kind's inline style), and its label outlined. */
function arrowMarksCss(ids: number[], colour: string): string {
  if (!ids.length) return '';
  const lines = ids.map((id) => `.react-flow__edge[data-id="${edgeId(id)}"] .react-flow__edge-path`);
  const labels = ids.map((id) => `[data-testid="arrow-${id}"]`);
  return (
    `${lines.join(',')}{stroke:${colour}!important;stroke-width:3px!important}` +
    `${labels.join(',')}{outline:2px solid ${colour};outline-offset:1px}\n`
  );
}

/** What the marks mean, over the canvas, with the removed blocks and a way to hide them. */
export function DiffMarksBanner({ marks, onHide }: { marks: DiffMarks; onHide(): void }) {
  return (
    <div
      className="absolute top-2 left-2 z-20 flex max-w-[28rem] items-start gap-2 rounded-md border border-slate-200 bg-white/95 px-3 py-2 text-xs text-slate-700 shadow-md"
      data-testid="diff-marks"
    >
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className="font-medium text-slate-900">
          {marks.added.length +
          marks.changed.length +
          marks.removed.length +
          marks.arrows.added.length +
          marks.arrows.changed.length
            ? 'Changes'
            : 'No changes'}{' '}
          {marks.label}
        </p>
        <p className="flex gap-3">
          {marks.added.length ? (
            <span>
              <span
                className="mr-1 inline-block size-2.5 rounded-sm bg-emerald-500 align-middle"
                aria-hidden
              />
              {marks.added.length} added
            </span>
          ) : null}
          {marks.changed.length ? (
            <span>
              <span className="mr-1 inline-block size-2.5 rounded-sm bg-amber-600 align-middle" aria-hidden />
              {marks.changed.length} changed
            </span>
          ) : null}
          {marks.arrows.added.length + marks.arrows.changed.length ? (
            <span>{marks.arrows.added.length + marks.arrows.changed.length} arrows added or changed</span>
          ) : null}
        </p>
        {marks.removed.length ? (
          <p>
            Removed (not on the canvas):{' '}
            {marks.removed.map((b) => `#${b.id}${b.name ? ` ${b.name}` : ''}`).join(', ')}
          </p>
        ) : null}
        {marks.onDraft ? null : (
          <p className="text-slate-500">
            The canvas shows the draft: the marks are on the blocks with these ids.
          </p>
        )}
      </div>
      <button
        type="button"
        onClick={onHide}
        aria-label="Hide the changes"
        title="Hide the changes"
        className="rounded p-0.5 hover:bg-slate-100"
      >
        <X className="size-3.5" aria-hidden />
      </button>
    </div>
  );
}
