'use client';

import {
  type InternalNode,
  type NodeChange,
  Position,
  type ReactFlowState,
  useStore,
  useStoreApi,
  type XYPosition,
} from '@xyflow/react';
import { calcAutoPan, getEdgePosition, pointToRendererPoint } from '@xyflow/system';
import { use, useEffect } from 'react';
import { arrowStroke, blockBox } from './arrow-edge';
import { arrowRoute } from './arrow-route';
import { FarZoomContext } from './far-zoom';
import type { ArrowFlowEdge, BotFlowNode } from './schema-to-flow';

/** How far (screen px) a press moves before it is a drag: React Flow's own threshold. */
const DRAG_THRESHOLD = 1;

/** React Flow's colour for an arrowhead given none (its `defaultMarkerColor`). */
const ARROWHEAD_COLOR = '#b1b1b7';

/**
 * React Flow's class for "do not start a drag here", given to the editor's React Flow while far
 * out: every block has it, so React Flow leaves the blocks' drags to FarDrag, while still taking
 * them as draggable (a press on one neither pans the canvas nor stops a click from selecting it).
 */
export const FAR_NO_DRAG_CLASS = 'react-flow__node';

const domNodeSelector = (s: ReactFlowState) => s.domNode;

type Store = ReturnType<typeof useStoreApi<BotFlowNode, ArrowFlowEdge>>;
type OnNodesChange = (changes: NodeChange<BotFlowNode>[]) => void;

/**
 * Zoomed far out, a block is dragged here instead of by React Flow (see FAR_NO_DRAG_CLASS). With
 * thousands of blocks on screen, React Flow's drag updates its store each frame, and every
 * arrow's component and handle checks it (12 ms a frame at 5,000 blocks); then Chromium lays out
 * the thousands of svg arrows' layers again (Layerize, another 6 ms). Here a frame moves the
 * dragged blocks' elements only, and draws the arrows on two canvases in their place, the svg
 * arrows hidden meanwhile: the still ones once as the drag starts, the moving ones each frame.
 * The drop is one position change, as React Flow's drag ends with: the editor saves it and can
 * undo it.
 */
export function FarDrag({ onNodesChange }: { onNodesChange: OnNodesChange }) {
  const far = use(FarZoomContext);
  const store = useStoreApi<BotFlowNode, ArrowFlowEdge>();
  // Set once React Flow's pane is mounted: until then there is nothing to listen on.
  const root = useStore(domNodeSelector);
  useEffect(() => {
    if (!far || !root) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.button !== 0 || event.shiftKey || event.metaKey || event.ctrlKey || event.altKey) return;
      const target = event.target as Element;
      const node = target.closest<HTMLElement>('.react-flow__node');
      if (!node?.dataset.id || target.closest('.nodrag, .react-flow__handle, .react-flow__resize-control'))
        return;
      press(store, root, node.dataset.id, event, onNodesChange);
    };
    root.addEventListener('pointerdown', onPointerDown);
    return () => root.removeEventListener('pointerdown', onPointerDown);
  }, [far, root, store, onNodesChange]);
  return null;
}

/** Follows one press on a block: a drag once it moves past the threshold, until it is let go. */
function press(
  store: Store,
  root: HTMLElement,
  id: string,
  down: PointerEvent,
  onNodesChange: OnNodesChange,
) {
  let drag: ReturnType<typeof startDrag> | null = null;
  let latest = { x: down.clientX, y: down.clientY };
  let frame = 0;
  /** The flow point under a screen point at the current view, as React Flow's drag reads it. */
  const flowPoint = (at: XYPosition, bounds: DOMRect) =>
    pointToRendererPoint({ x: at.x - bounds.left, y: at.y - bounds.top }, store.getState().transform);
  // From where it was pressed in the flow, so a block stays under the mouse while the view moves
  // (auto-pan, a wheel zoom, the editor opening beside it).
  const start = flowPoint(latest, root.getBoundingClientRect());
  const offset = (bounds: DOMRect) => {
    const at = flowPoint(latest, bounds);
    return { x: at.x - start.x, y: at.y - start.y };
  };
  // Near the pane's edge the view pans each frame, as in React Flow's drag.
  const tick = () => {
    frame = requestAnimationFrame(tick);
    const state = store.getState();
    // Read once a frame: after the pan below it would be a forced layout.
    const bounds = root.getBoundingClientRect();
    const [x, y] = state.autoPanOnNodeDrag
      ? calcAutoPan({ x: latest.x - bounds.left, y: latest.y - bounds.top }, bounds, state.autoPanSpeed)
      : [0, 0];
    if (x || y) void state.panBy({ x, y });
    drag?.moveTo(offset(bounds));
  };
  const move = (event: PointerEvent) => {
    if (event.pointerId !== down.pointerId) return;
    latest = { x: event.clientX, y: event.clientY };
    if (drag || Math.hypot(latest.x - down.clientX, latest.y - down.clientY) <= DRAG_THRESHOLD) return;
    drag = startDrag(store, root, id);
    tick();
  };
  const end = (event: PointerEvent) => {
    if (event.pointerId !== down.pointerId) return;
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', end);
    window.removeEventListener('pointercancel', end);
    cancelAnimationFrame(frame);
    if (!drag) return;
    if (event.type === 'pointerup') {
      drag.moveTo(offset(root.getBoundingClientRect()));
      onNodesChange(drag.drop());
    } else drag.moveTo({ x: 0, y: 0 });
    // The svg arrows come back once React Flow has drawn them from the dropped positions.
    const done = drag.finish;
    requestAnimationFrame(() => requestAnimationFrame(done));
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', end);
  window.addEventListener('pointercancel', end);
}

/**
 * The drag of the pressed block (and of the other selected blocks when it is one of them, as in
 * React Flow, which selects a block that was not): moves their elements and draws the arrows.
 */
function startDrag(store: Store, root: HTMLElement, id: string) {
  const state = store.getState();
  const pressed = state.nodeLookup.get(id);
  // Selecting reaches the store through the editor's nodes, later: the pressed block moves alone.
  if (!pressed?.selected) state.addSelectedNodes([id]);
  const moving = new Map<string, { node: InternalNode<BotFlowNode>; element: HTMLElement | null }>();
  for (const node of state.nodeLookup.values())
    if ((pressed?.selected ? node.selected : node.id === id) && node.draggable !== false)
      moving.set(node.id, {
        node,
        // Absent when React Flow renders only the blocks in view and this one is not (nor is it
        // drawn while auto-pan has its old place out of view): it shows where it is dropped.
        element: root.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(node.id)}"]`),
      });
  const { edges } = state;
  const touching = edges.filter((e) => moving.has(e.source) || moving.has(e.target));
  const still = edges.filter((e) => !moving.has(e.source) && !moving.has(e.target));
  const svgArrows = root.querySelector<HTMLElement>('.react-flow__edges');
  const viewport = root.querySelector<HTMLElement>('.react-flow__viewport');
  const stillLayer = arrowCanvas(viewport);
  const movingLayer = arrowCanvas(viewport);
  for (const { element } of moving.values()) element?.style.setProperty('will-change', 'transform');
  // Every svg arrow, not only the moved ones: with the others still shown, a frame took 31 ms of
  // rendering at 5,000 blocks instead of 11 (bench/canvas.bench.ts).
  svgArrows?.style.setProperty('visibility', 'hidden');

  let transform = '';
  let offset: XYPosition = { x: 0, y: 0 };
  const moved = (node: InternalNode<BotFlowNode>): InternalNode<BotFlowNode> => ({
    ...node,
    internals: {
      ...node.internals,
      positionAbsolute: {
        x: node.internals.positionAbsolute.x + offset.x,
        y: node.internals.positionAbsolute.y + offset.y,
      },
    },
  });
  const nodeAt = (nodeId: string) => {
    const entry = moving.get(nodeId);
    return entry ? moved(entry.node) : store.getState().nodeLookup.get(nodeId);
  };

  return {
    /** Moves the blocks this far (flow units) from where the drag started. */
    moveTo(by: XYPosition) {
      const current = store.getState();
      offset = by;
      for (const { node, element } of moving.values()) {
        const { x, y } = moved(node).internals.positionAbsolute;
        if (element) element.style.transform = `translate(${x}px,${y}px)`;
      }
      // The still arrows are drawn again only when the view changed (auto-pan, a wheel zoom).
      if (current.transform.join() !== transform) {
        transform = current.transform.join();
        drawArrows(stillLayer, current, still, nodeAt);
      }
      drawArrows(movingLayer, current, touching, nodeAt);
    },
    /** The position changes that put the blocks where they were dropped. */
    drop(): NodeChange<BotFlowNode>[] {
      return [...moving.values()].map(({ node }) => ({
        type: 'position',
        id: node.id,
        position: { x: node.position.x + offset.x, y: node.position.y + offset.y },
        dragging: false,
      }));
    },
    /** Gives the blocks and arrows back to React Flow. */
    finish() {
      for (const { element } of moving.values()) element?.style.removeProperty('will-change');
      svgArrows?.style.removeProperty('visibility');
      stillLayer.canvas.remove();
      movingLayer.canvas.remove();
    },
  };
}

/** A canvas under the blocks, inside React Flow's viewport, that covers the pane. */
function arrowCanvas(viewport: HTMLElement | null) {
  const canvas = document.createElement('canvas');
  canvas.style.cssText = 'position:absolute;pointer-events:none;transform-origin:0 0';
  canvas.setAttribute('aria-hidden', 'true');
  viewport?.prepend(canvas);
  return { canvas, context: canvas.getContext('2d') };
}

/**
 * Draws `edges` as ArrowEdge draws them (the same route, stroke and arrowhead) on `layer`,
 * sized to the pane at the current view; the canvas sits in flow coordinates in the viewport.
 */
function drawArrows(
  { canvas, context }: ReturnType<typeof arrowCanvas>,
  state: ReactFlowState<BotFlowNode, ArrowFlowEdge>,
  edges: ArrowFlowEdge[],
  nodeAt: (id: string) => InternalNode<BotFlowNode> | undefined,
) {
  if (!context) return;
  const [x, y, zoom] = state.transform;
  const ratio = window.devicePixelRatio || 1;
  const width = Math.ceil(state.width * ratio);
  const height = Math.ceil(state.height * ratio);
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  Object.assign(canvas.style, {
    left: `${-x / zoom}px`,
    top: `${-y / zoom}px`,
    width: `${state.width / zoom}px`,
    height: `${state.height / zoom}px`,
  });
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.clearRect(0, 0, width, height);
  context.setTransform(zoom * ratio, 0, 0, zoom * ratio, x * ratio, y * ratio);
  for (const edge of edges) {
    const sourceNode = nodeAt(edge.source);
    const targetNode = nodeAt(edge.target);
    const kind = edge.data?.arrow.kind;
    if (!sourceNode || !targetNode || !kind) continue;
    const ends = getEdgePosition({
      id: edge.id,
      sourceNode,
      sourceHandle: edge.sourceHandle ?? null,
      targetNode,
      targetHandle: edge.targetHandle ?? null,
      connectionMode: state.connectionMode,
    });
    if (!ends) continue;
    const line = arrowStroke(kind, !!edge.selected);
    context.strokeStyle = line.color;
    context.lineWidth = line.width;
    context.setLineDash(line.dash);
    context.stroke(new Path2D(arrowRoute(ends, blockBox(sourceNode), blockBox(targetNode))[0]));
    arrowhead(context, ends.targetX, ends.targetY, ends.targetPosition, line.width);
  }
}

/** Into which direction an arrow enters its target's handle on each side. */
const ENTERING: Record<Position, XYPosition> = {
  [Position.Left]: { x: 1, y: 0 },
  [Position.Right]: { x: -1, y: 0 },
  [Position.Top]: { x: 0, y: 1 },
  [Position.Bottom]: { x: 0, y: -1 },
};

/** React Flow's closed arrowhead (18 × 18 in stroke widths, a 5 × 8 triangle of its 20 units). */
function arrowhead(context: CanvasRenderingContext2D, x: number, y: number, side: Position, width: number) {
  const { x: dx, y: dy } = ENTERING[side];
  const length = 4.5 * width;
  const half = 3.6 * width;
  context.setLineDash([]);
  context.fillStyle = ARROWHEAD_COLOR;
  context.beginPath();
  context.moveTo(x, y);
  context.lineTo(x - dx * length - dy * half, y - dy * length + dx * half);
  context.lineTo(x - dx * length + dy * half, y - dy * length - dx * half);
  context.closePath();
  context.fill();
}
