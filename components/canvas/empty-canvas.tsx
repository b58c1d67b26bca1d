'use client';

import { LayoutTemplate, Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';

/**
 * What an empty bot shows in the middle of the canvas: a first start block, or the demo shop bot
 * as a template (an ordinary edit, so Undo takes it back). The palette stays usable beside it.
 */
export function EmptyCanvas({ onAddStart, onOpenTemplate }: { onAddStart(): void; onOpenTemplate(): void }) {
  return (
    <EmptyCanvasCard>
      <p className="mt-1 text-sm text-slate-600">
        A conversation begins at a start block. Add one and write the greeting, or open a small shop bot to
        see how blocks and arrows work together, including the answer to a reply it does not understand.
      </p>
      <div className="mt-4 flex flex-wrap justify-center gap-2">
        <Button onClick={onAddStart}>
          <Plus className="size-4" aria-hidden />
          Add a start block
        </Button>
        <Button variant="secondary" onClick={onOpenTemplate}>
          <LayoutTemplate className="size-4" aria-hidden />
          Open the shop bot template
        </Button>
      </div>
      <p className="mt-3 text-xs text-slate-500">
        Or drag a kind from the palette on the left.{' '}
        <a href="/docs/builder" target="_blank" rel="noopener" className="text-brand-600 underline">
          How the builder works
        </a>
      </p>
    </EmptyCanvasCard>
  );
}

/** An operator's empty, read-only canvas: who builds the bot. */
export function EmptyReadOnlyCanvas() {
  return (
    <EmptyCanvasCard>
      <p className="mt-1 text-sm text-slate-600">The project's owners and admins build the bot here.</p>
    </EmptyCanvasCard>
  );
}

function EmptyCanvasCard({ children }: { children: ReactNode }) {
  return (
    <div className="pointer-events-none absolute inset-0 z-10 flex items-center justify-center p-4">
      <section
        aria-labelledby="empty-canvas-title"
        className="pointer-events-auto w-[26rem] max-w-full rounded-lg border border-slate-200 bg-white p-5 text-center shadow-md"
      >
        <h2 id="empty-canvas-title" className="text-base font-semibold text-slate-900">
          This bot has no blocks yet
        </h2>
        {children}
      </section>
    </div>
  );
}
