'use client';

import { memo } from 'react';
import { cn } from '@/components/ui/cn';
import { BLOCK_KINDS, type BlockKind } from '@/lib/schema';
import { blockKindStyle } from './block-colors';

export const PALETTE_MIME = 'application/x-blockbot-kind';

/** Adds a block of any kind: click for the middle of the view, or drag onto the canvas. */
export const BlockPalette = memo(function BlockPalette({ onAdd }: { onAdd(kind: BlockKind): void }) {
  return (
    <fieldset className="absolute top-2 left-2 z-10 flex flex-col gap-1 rounded-lg border border-slate-200 bg-white/95 p-1.5 shadow-sm">
      <legend className="sr-only">Add a block</legend>
      <p className="px-1 text-[10px] font-semibold uppercase tracking-wide text-slate-500" aria-hidden>
        Add
      </p>
      {BLOCK_KINDS.map((kind) => (
        <button
          key={kind}
          type="button"
          draggable
          aria-label={`Add ${blockKindStyle[kind].label.toLowerCase()} block`}
          title={`Add a ${blockKindStyle[kind].label.toLowerCase()} block (click, or drag onto the canvas)`}
          onClick={() => onAdd(kind)}
          onDragStart={(event) => {
            event.dataTransfer.setData(PALETTE_MIME, kind);
            event.dataTransfer.effectAllowed = 'copy';
          }}
          className="flex items-center gap-1.5 rounded px-1 py-0.5 text-left text-xs text-slate-700 hover:bg-slate-100"
        >
          <span
            className={cn('size-3 shrink-0 rounded-sm border', blockKindStyle[kind].className)}
            aria-hidden
          />
          {blockKindStyle[kind].label}
        </button>
      ))}
    </fieldset>
  );
});
