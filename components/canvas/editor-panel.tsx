'use client';

import { ChevronDown, ChevronRight, PanelRightOpen } from 'lucide-react';
import type { ReactNode, Ref } from 'react';
import { cn } from '@/components/ui/cn';
import { panelWidthStyle, ResizeHandle, type usePanelLayout } from './side-panel';

/**
 * The block or arrow editor's place beside the canvas (under it on a phone, in 40 % of the
 * height): resized by the handle on its edge, collapsed by the tab on it to a rail that opens it
 * again. Collapsed, the editor stays mounted (hidden), so a field it holds back is not lost.
 */
export function EditorPanel({
  title,
  layout,
  panelRef,
  children,
}: {
  /** What is open: "Block editor", "Arrow editor"; null when nothing is selected. */
  title: string | null;
  layout: ReturnType<typeof usePanelLayout>;
  panelRef: Ref<HTMLDivElement>;
  children: ReactNode;
}) {
  const collapsed = layout.collapsed && title !== null;
  return (
    <div ref={panelRef} className="relative flex min-h-0 shrink-0">
      {collapsed ? (
        <button
          type="button"
          aria-label={`Show the ${title?.toLowerCase()}`}
          aria-expanded={false}
          title={`Show the ${title?.toLowerCase()}`}
          onClick={() => layout.setCollapsed(false)}
          className="flex items-center gap-2 border-slate-200 bg-white text-xs text-slate-600 hover:bg-slate-100 md:w-9 md:flex-col md:border-l md:py-3 max-md:h-9 max-md:w-full max-md:border-t max-md:px-3"
        >
          <PanelRightOpen className="size-4 shrink-0" aria-hidden />
          <span className="md:[writing-mode:vertical-rl]">{title}</span>
        </button>
      ) : null}
      {title !== null && !collapsed ? (
        <>
          <ResizeHandle
            label={`Resize the ${title.toLowerCase()}`}
            name="editor"
            width={layout.width}
            onResize={layout.resize}
          />
          {/* On the panel's edge, half over the canvas (under its Analytics button); on top on a phone. */}
          <button
            type="button"
            aria-label={`Hide the ${title.toLowerCase()}`}
            aria-expanded
            title={`Hide the ${title.toLowerCase()} (more room for the canvas)`}
            onClick={() => layout.setCollapsed(true)}
            className="absolute z-30 flex items-center justify-center rounded-full border border-slate-300 bg-white text-slate-600 shadow-sm hover:bg-slate-100 md:top-12 md:-left-3 md:h-10 md:w-6 max-md:-top-3 max-md:right-3 max-md:h-6 max-md:w-10"
          >
            <ChevronRight className="size-4 max-md:hidden" aria-hidden />
            <ChevronDown className="size-4 md:hidden" aria-hidden />
          </button>
        </>
      ) : null}
      <div
        style={panelWidthStyle(layout.width)}
        className={cn(
          'flex min-h-0 md:w-[var(--panel-width)] md:*:w-full max-md:w-full max-md:*:h-[40dvh] max-md:*:w-full max-md:*:border-t max-md:*:border-l-0',
          (collapsed || title === null) && 'hidden',
        )}
      >
        {children}
      </div>
    </div>
  );
}
