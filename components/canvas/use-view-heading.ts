'use client';

import type { ReactFlowInstance, Viewport } from '@xyflow/react';
import { useCallback, useMemo, useRef } from 'react';
import type { ArrowFlowEdge, BotFlowNode } from './schema-to-flow';

export interface ViewHeading {
  /** Moves the view, animated over `durationMs`. */
  setViewport(viewport: Viewport, durationMs: number): void;
  /** The zoom the view is heading to: an animation's target while it runs, else the zoom. */
  zoom(): number;
}

/**
 * The canvas's animated view changes (a jump to a block, Zoom to fit, keeping a block in sight).
 * While one runs, React Flow's zoom passes through in-between values (its smooth path zooms out
 * and back in on a long pan); another change started meanwhile (the block editor opening on the
 * block jumped to) keeps the zoom being headed to, not one in passing.
 */
export function useViewHeading(flow: ReactFlowInstance<BotFlowNode, ArrowFlowEdge>): ViewHeading {
  const heading = useRef<{ zoom: number; until: number } | null>(null);
  const setViewport = useCallback(
    (viewport: Viewport, durationMs: number) => {
      heading.current = { zoom: viewport.zoom, until: performance.now() + durationMs };
      void flow.setViewport(viewport, { duration: durationMs });
    },
    [flow],
  );
  const zoom = useCallback(() => {
    const target = heading.current;
    return target && performance.now() < target.until ? target.zoom : flow.getZoom();
  }, [flow]);
  return useMemo(() => ({ setViewport, zoom }), [setViewport, zoom]);
}
