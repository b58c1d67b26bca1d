'use client';

import { type ReactFlowState, useStore, useStoreApi } from '@xyflow/react';
import { use } from 'react';
import { FarZoomContext } from './far-zoom';

/** Beyond this many arrows (a big selection) none get layers: each costs memory and compositing. */
const MAX_LAYERS = 64;

/**
 * The ids of the selected nodes, as one string: it changes with the selection, not each frame
 * of a drag. A dragged block is selected (React Flow selects it as the drag starts).
 */
const selectedSelector = (s: ReactFlowState) => {
  let ids = '';
  for (const node of s.nodes) if (node.selected) ids += `${node.id} `;
  return ids;
};

/**
 * The selected blocks' arrows get compositing layers of their own, ready for a drag. React Flow
 * draws every arrow as an svg in one layer; a moving arrow then has its whole box (a long
 * arrow's is most of the screen) rasterised again each frame, with every arrow crossing it: on a
 * 5,000-block bot zoomed in, 50 ms of raster a frame. In a layer of its own it rasterises alone.
 * Taking an arrow out of the shared layer has that layer rasterised again where it was (a few
 * hundred ms on a big bot in software): done when the block is selected, which opens its editor
 * anyway, a drag of the selected block starts without that pause. A style rule rather than a
 * class on each edge: the edges need not change when the selection does.
 * Zoomed far out an arrow is short on screen and cheap to rasterise, while each layer makes
 * Chromium's layer assignment (Layerize) over the thousands of blocks and arrows in view slower:
 * there, no layers.
 */
export function SelectedArrowLayers() {
  const selected = useStore(selectedSelector);
  const store = useStoreApi();
  const far = use(FarZoomContext);
  if (!selected || far) return null;
  // Not React Flow's connectionLookup: it keeps one of several arrows between the same handles.
  const nodes = new Set(selected.trim().split(' '));
  const arrows = store.getState().edges.filter((edge) => nodes.has(edge.source) || nodes.has(edge.target));
  if (!arrows.length || arrows.length > MAX_LAYERS) return null;
  const selector = arrows
    .map(({ id }) => id)
    .map((id) => `.react-flow__edges > svg:has(> [data-id="${CSS.escape(id)}"])`)
    .join(',');
  return <style>{`${selector}{will-change:transform}`}</style>;
}
