'use client';

import { Panel, type ReactFlowState, useStore, useStoreApi } from '@xyflow/react';
import { getBoundsOfRects, XYMinimap } from '@xyflow/system';
import { useEffect, useId, useMemo, useRef } from 'react';
import { blockKindStyle } from './block-colors';
import { type MinimapDrawing, minimapDrawing, splitMoving } from './minimap-drawing';
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
 *
 * The blocks being dragged, and the mask over what the canvas does not show, are drawn in a second
 * svg over the first, in a compositing layer of its own: a drag frame then rasterises those few
 * shapes again, not a path of every block (on a 5,000-block bot, longer than the frame).
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
  const lastStill = useRef<readonly BotFlowNode[]>([]);
  const { still, moving } = useMemo(() => splitMoving(nodes, lastStill.current), [nodes]);
  useEffect(() => {
    lastStill.current = still;
  }, [still]);
  const stillDrawing = useMemo(() => minimapDrawing(still, colorOf), [still]);
  const movingDrawing = useMemo(() => minimapDrawing(moving, colorOf), [moving]);

  const view = { x: -tx / zoom, y: -ty / zoom, width: flowWidth / zoom, height: flowHeight / zoom };
  const drawn = [stillDrawing.bounds, movingDrawing.bounds, view].filter((rect) => rect !== null);
  const bounds = drawn.reduce(getBoundsOfRects);
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
  const viewBox = `${box.x} ${box.y} ${box.width} ${box.height}`;
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
        viewBox={viewBox}
        className="react-flow__minimap-svg"
        role="img"
        aria-labelledby={titleId}
      >
        <title id={titleId}>{ariaLabel}</title>
        <Blocks drawing={stillDrawing} />
      </svg>
      <svg
        width={width}
        height={height}
        viewBox={viewBox}
        className="pointer-events-none absolute top-0 left-0 will-change-transform"
        aria-hidden
      >
        <Blocks drawing={movingDrawing} />
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

function Blocks({ drawing }: { drawing: MinimapDrawing }) {
  return drawing.paths.map((p) => (
    <path
      key={p.color}
      className="react-flow__minimap-node"
      d={p.d}
      style={{ fill: p.color }}
      shapeRendering="crispEdges"
    />
  ));
}
