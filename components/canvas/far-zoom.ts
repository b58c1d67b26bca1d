'use client';

import { type ReactFlowState, useStore } from '@xyflow/react';
import { createContext } from 'react';

/** Below this zoom, blocks show only their kind, id and name, and arrows have no label. */
export const FAR_ZOOM = 0.4;

/** Null until React Flow has set its viewport up (its store starts at zoom 1 meanwhile). */
const farSelector = (s: ReactFlowState) => (s.panZoom ? s.transform[2] < FAR_ZOOM : null);

/** Whether the canvas is zoomed far out: React Flow's zoom, or before it has one, `openingZoom`. */
export function useFarZoom(openingZoom: number | undefined): boolean {
  const far = useStore(farSelector);
  return far ?? (openingZoom !== undefined && openingZoom < FAR_ZOOM);
}

/**
 * Whether the canvas is zoomed far out. The editor reads the zoom once and provides it, so the
 * thousands of nodes and edges of a big bot do not each subscribe to the viewport; they
 * re-render only when the zoom crosses FAR_ZOOM.
 */
export const FarZoomContext = createContext(false);
