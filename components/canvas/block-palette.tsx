'use client';

import { memo, useId, useState } from 'react';
import { cn } from '@/components/ui/cn';
import { BLOCK_KINDS, type BlockKind } from '@/lib/schema';
import { BLOCK_KIND_HELP } from '@/lib/schema/kind-help';
import { blockKindStyle } from './block-colors';

export const PALETTE_MIME = 'application/x-blockbot-kind';

/**
 * Adds a block of any kind: click for the middle of the view, or drag onto the canvas. Hovering
 * or focusing a kind shows what it does beside the palette, which stays narrow on the canvas.
 */
export const BlockPalette = memo(function BlockPalette({ onAdd }: { onAdd(kind: BlockKind): void }) {
  const [described, setDescribed] = useState<BlockKind | null>(null);
  const helpId = useId();
  return (
    // Beside the canvas, not over it: no block is ever under the palette. A row above it on a phone.
    <fieldset className="relative z-10 flex shrink-0 flex-col gap-1 border-r border-slate-200 bg-white p-1.5 max-md:flex-row max-md:flex-wrap max-md:border-r-0 max-md:border-b">
      <legend className="sr-only">Add a block</legend>
      <p className="px-1 text-[10px] font-semibold uppercase tracking-wide text-slate-500" aria-hidden>
        Add
      </p>
      {BLOCK_KINDS.map((kind) => (
        <div key={kind} className="relative">
          <button
            type="button"
            draggable
            aria-label={`Add ${blockKindStyle[kind].label.toLowerCase()} block`}
            aria-describedby={described === kind ? `${helpId}-${kind}` : undefined}
            onClick={() => onAdd(kind)}
            onDragStart={(event) => {
              setDescribed(null);
              event.dataTransfer.setData(PALETTE_MIME, kind);
              event.dataTransfer.effectAllowed = 'copy';
            }}
            onMouseEnter={() => setDescribed(kind)}
            onMouseLeave={() => setDescribed(null)}
            onFocus={() => setDescribed(kind)}
            onBlur={() => setDescribed(null)}
            className="flex w-full items-center gap-1.5 rounded px-1 py-0.5 text-left text-xs text-slate-700 hover:bg-slate-100"
          >
            <span
              className={cn('size-3 shrink-0 rounded-sm border', blockKindStyle[kind].className)}
              aria-hidden
            />
            {blockKindStyle[kind].label}
          </button>
          {described === kind ? (
            <div
              id={`${helpId}-${kind}`}
              role="tooltip"
              className="pointer-events-none absolute top-0 left-full z-20 ml-3 w-64 rounded-md border border-slate-200 bg-white p-2.5 text-xs text-slate-700 shadow-lg"
            >
              <p className="font-semibold text-slate-900">{blockKindStyle[kind].label}</p>
              <p className="mt-1">{BLOCK_KIND_HELP[kind].does}</p>
              <p className="mt-1 text-slate-500">Use it for {BLOCK_KIND_HELP[kind].useFor}</p>
              <p className="mt-1.5 text-slate-400">Click to add, or drag onto the canvas.</p>
            </div>
          ) : null}
        </div>
      ))}
    </fieldset>
  );
});
