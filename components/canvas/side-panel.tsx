'use client';

import {
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  useCallback,
  useEffect,
  useState,
} from 'react';
import { browserStorage as storage } from './browser-storage';
import {
  clampWidth,
  PANEL_BOUNDS,
  type PanelLayout,
  type PanelName,
  panelKey,
  parsePanelLayout,
} from './panel-layout';

/** Keys move a resize handle this far (a page's worth with Shift). */
const KEY_STEP = 16;

/** A side panel's width and collapsed state, remembered in this browser (panel-layout.ts). */
export function usePanelLayout(name: PanelName) {
  // With no storage the panels start as they do the first time.
  const [layout, setLayout] = useState<PanelLayout>(() =>
    parsePanelLayout(storage()?.getItem(panelKey(name)) ?? null, PANEL_BOUNDS[name]),
  );
  useEffect(() => {
    try {
      storage()?.setItem(panelKey(name), JSON.stringify(layout));
    } catch {
      // Full or refused: the layout holds for this page only.
    }
  }, [name, layout]);
  const resize = useCallback(
    (width: number) =>
      setLayout((prev) => ({ ...prev, width: clampWidth(width, PANEL_BOUNDS[name], window.innerWidth) })),
    [name],
  );
  const setCollapsed = useCallback((collapsed: boolean) => setLayout((prev) => ({ ...prev, collapsed })), []);
  return { ...layout, resize, setCollapsed };
}

/** The panel's width for wide screens (`md:w-[var(--panel-width)]`); a phone lays it out its own way. */
export const panelWidthStyle = (width: number) => ({ '--panel-width': `${width}px` }) as CSSProperties;

/**
 * The handle on a panel's left edge: drag it (or focus it and use the arrow keys) to make the
 * panel wider or narrower. Not on a phone, where the panels are laid out across the screen.
 */
export function ResizeHandle({
  label,
  name,
  width,
  onResize,
}: {
  label: string;
  name: PanelName;
  width: number;
  onResize(width: number): void;
}) {
  const [drag, setDrag] = useState<{ x: number; width: number } | null>(null);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ x: event.clientX, width });
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    // The panel is on the right: moving the handle left widens it.
    if (drag) onResize(drag.width + drag.x - event.clientX);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? KEY_STEP * 4 : KEY_STEP;
    const next =
      event.key === 'ArrowLeft'
        ? width + step
        : event.key === 'ArrowRight'
          ? width - step
          : event.key === 'Home'
            ? PANEL_BOUNDS[name].min
            : event.key === 'End'
              ? PANEL_BOUNDS[name].max
              : null;
    if (next === null) return;
    event.preventDefault();
    onResize(next);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable separator is the resize handle's ARIA pattern; <hr> takes no focus.
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width}
      aria-valuemin={PANEL_BOUNDS[name].min}
      aria-valuemax={PANEL_BOUNDS[name].max}
      tabIndex={0}
      title={`${label} (drag, or the arrow keys)`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => setDrag(null)}
      onPointerCancel={() => setDrag(null)}
      onKeyDown={onKeyDown}
      className={`absolute inset-y-0 -left-1 z-20 w-2 cursor-col-resize touch-none outline-none hover:bg-brand-500/30 focus-visible:bg-brand-500/50 max-md:hidden ${drag ? 'bg-brand-500/50' : ''}`}
    />
  );
}
