'use client';

import { Panel, type ReactFlowState, useStore, useStoreApi } from '@xyflow/react';
import { getBoundsOfRects, XYMinimap } from '@xyflow/system';
import { useEffect, useId, useMemo, useRef } from 'react';
import { blockKindStyle } from './block-colors';
import { minimapDrawing } from './minimap-drawing';
import type { BotFlowNode } from './schema-to-flow';

const nodesSelector = (s: ReactFlowState) => s.nodes as BotFlowNode[];
const transformSelector = (s: ReactFlowState) => s.transform;
const sizeSelector = (s: ReactFlowState) => `${s.width}x${s.height}`;
const panZoomSelector = (s: ReactFlowState) => s.panZoom;
const extentSelector = (s: ReactFlowState) => s.translateExtent;
const colorOf = (node: BotFlowNode) => blockKindStyle[node.data.block.kind].minimap;
/** Room around the drawing, in minimap pixels (React Flow's MiniMap default). */
const OFFSET = 5;

/**
 * The canvas's minimap, drawn as React Flow's <MiniMap> is (same classes, panned and zoomed by
 * React Flow's own XYMinimap) but with one path per block colour instead of an element per
 * block: React Flow's keeps a store subscription for each block and runs them all on every
 * store update, each frame of a drag, which on a 5,000-block bot took longer than the frame.
 */
export function BotMiniMap({
  width,
  height,
  ariaLabel,
}: {
  width: number;
  height: number;
  ariaLabel: string;
}) {
  const store = useStoreApi();
  const nodes = useStore(nodesSelector);
  const [tx, ty, zoom] = useStore(transformSelector);
  const [flowWidth, flowHeight] = useStore(sizeSelector).split('x').map(Number);
  const panZoom = useStore(panZoomSelector);
  const translateExtent = useStore(extentSelector);
  const drawing = useMemo(() => minimapDrawing(nodes, colorOf), [nodes]);

  const view = { x: -tx / zoom, y: -ty / zoom, width: flowWidth / zoom, height: flowHeight / zoom };
  const bounds = drawing.bounds ? getBoundsOfRects(drawing.bounds, view) : view;
  const viewScale = Math.max(bounds.width / width, bounds.height / height);
  const offset = OFFSET * viewScale;
  const box = {
    x: bounds.x - (viewScale * width - bounds.width) / 2 - offset,
    y: bounds.y - (viewScale * height - bounds.height) / 2 - offset,
    width: viewScale * width + offset * 2,
    height: viewScale * height + offset * 2,
  };

  const svg = useRef<SVGSVGElement>(null);
  const viewScaleRef = useRef(viewScale);
  viewScaleRef.current = viewScale;
  // Bound again when the pane's size or extent changes (rarely): d3-zoom on the minimap's svg.
  useEffect(() => {
    if (!svg.current || !panZoom) return;
    const minimap = XYMinimap({
      domNode: svg.current,
      panZoom,
      getTransform: () => store.getState().transform,
      getViewScale: () => viewScaleRef.current,
    });
    minimap.update({ translateExtent, width: flowWidth, height: flowHeight, pannable: true, zoomable: true });
    return minimap.destroy;
  }, [panZoom, store, translateExtent, flowWidth, flowHeight]);

  const titleId = useId();
  return (
    <Panel
      position="bottom-right"
      className="react-flow__minimap"
      data-testid="rf__minimap"
      style={{ width, height }}
    >
      <svg
        ref={svg}
        width={width}
        height={height}
        viewBox={`${box.x} ${box.y} ${box.width} ${box.height}`}
        className="react-flow__minimap-svg"
        role="img"
        aria-labelledby={titleId}
      >
        <title id={titleId}>{ariaLabel}</title>
        {drawing.paths.map((p) => (
          <path
            key={p.color}
            className="react-flow__minimap-node"
            d={p.d}
            style={{ fill: p.color }}
            shapeRendering="crispEdges"
          />
        ))}
        <path
          className="react-flow__minimap-mask"
          d={`M${box.x - offset},${box.y - offset}h${box.width + offset * 2}v${box.height + offset * 2}h${-box.width - offset * 2}z
        M${view.x},${view.y}h${view.width}v${view.height}h${-view.width}z`}
          fillRule="evenodd"
          pointerEvents="none"
        />
      </svg>
    </Panel>
  );
}
