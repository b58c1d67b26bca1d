'use client';

import { type ReactFlowState, useStore, useStoreApi } from '@xyflow/react';
import { use } from 'react';
import { FarZoomContext } from './far-zoom';

/** Beyond this many arrows (a big selection dragged at once) none get layers: each costs memory and compositing. */
const MAX_LAYERS = 64;

/** The ids of the nodes being dragged, as one string: it changes when a drag starts and ends, not each frame. */
const draggingSelector = (s: ReactFlowState) => {
  let ids = '';
  for (const node of s.nodes) if (node.dragging) ids += `${node.id} `;
  return ids;
};

/**
 * While blocks are dragged, their arrows get compositing layers of their own. React Flow draws
 * every arrow as an svg in one layer; a moving arrow then has its whole box (a long arrow's is
 * most of the screen) rasterised again each frame, with every arrow crossing it: on a
 * 5,000-block bot zoomed in, 50 ms of raster a frame. In a layer of its own it rasterises alone.
 * A style rule rather than a class on each edge: the edges need not change when a drag starts.
 * Zoomed far out an arrow is short on screen and cheap to rasterise, while each layer makes
 * Chromium's layer assignment (Layerize) over the thousands of blocks and arrows in view slower:
 * there, no layers.
 */
export function DraggedArrowLayers() {
  const dragging = useStore(draggingSelector);
  const store = useStoreApi();
  const far = use(FarZoomContext);
  if (!dragging || far) return null;
  // Not React Flow's connectionLookup: it keeps one of several arrows between the same handles.
  const nodes = new Set(dragging.trim().split(' '));
  const arrows = store.getState().edges.filter((edge) => nodes.has(edge.source) || nodes.has(edge.target));
  if (!arrows.length || arrows.length > MAX_LAYERS) return null;
  const selector = arrows
    .map(({ id }) => id)
    .map((id) => `.react-flow__edges > svg:has(> [data-id="${CSS.escape(id)}"])`)
    .join(',');
  return <style>{`${selector}{will-change:transform}`}</style>;
}
