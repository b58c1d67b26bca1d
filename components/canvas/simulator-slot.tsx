'use client';

import { MessageSquare, PanelRightClose } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { panelWidthStyle, ResizeHandle } from './side-panel';

/**
 * SLOT: the simulator panel (components/simulator) on the right of the canvas, behind a
 * collapsible rail, resized by the handle on its left edge (`width`; a phone lays it over the
 * canvas at its own width). The canvas page opens it by default, because the simulator's browser
 * test talks to the bot right after sign-up; pass `open={false}` to start collapsed.
 */
export function SimulatorSlot({
  open,
  onOpenChange,
  width,
  onResize,
  children,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  width: number;
  onResize(width: number): void;
  children: ReactNode;
}) {
  return (
    // On a phone the open simulator lies over the canvas: beside it, it squeezed the canvas to
    // nothing and the toolbar and palette spilled over the chat.
    <div
      className={cn(
        'flex h-full shrink-0',
        open && 'max-md:absolute max-md:inset-y-0 max-md:right-0 max-md:z-30 max-md:shadow-lg',
      )}
    >
      <div className="flex w-9 shrink-0 flex-col items-center border-l border-slate-200 bg-white py-2">
        <button
          type="button"
          aria-label={open ? 'Hide simulator' : 'Show simulator'}
          aria-expanded={open}
          title={open ? 'Hide the simulator' : 'Show the simulator'}
          onClick={() => onOpenChange(!open)}
          className="flex flex-col items-center gap-2 rounded p-1.5 text-slate-600 hover:bg-slate-100"
        >
          {open ? (
            <PanelRightClose className="size-4" aria-hidden />
          ) : (
            <MessageSquare className="size-4" aria-hidden />
          )}
          <span className="text-xs [writing-mode:vertical-rl]">Simulator</span>
        </button>
      </div>
      {open ? (
        <div className="relative flex h-full">
          <ResizeHandle label="Resize the simulator" name="testChat" width={width} onResize={onResize} />
          <div
            style={panelWidthStyle(width)}
            className="flex h-full md:w-[var(--panel-width)] md:*:w-full md:*:max-w-none"
          >
            {children}
          </div>
        </div>
      ) : null}
    </div>
  );
}
