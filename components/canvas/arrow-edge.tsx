'use client';

import {
  BaseEdge,
  EdgeLabelRenderer,
  type EdgeProps,
  type InternalNode,
  useInternalNode,
  useStoreApi,
} from '@xyflow/react';
import { ChevronsRight, Inbox, MousePointerClick, Timer } from 'lucide-react';
import { memo, use } from 'react';
import { cn } from '@/components/ui/cn';
import type { Arrow } from '@/lib/schema';
import { ArrowFigures } from './analytics-overlay';
import { type ArrowRoute, arrowRoute, isBackward } from './arrow-route';
import { FarZoomContext } from './far-zoom';
import { nodesBounds } from './initial-viewport';
import { LintBadge } from './lint-badge';
import { type ArrowFlowEdge, arrowLabel } from './schema-to-flow';

/**
 * An arrow: solid for conditions, thin for unconditional, thick green for continue (no reply
 * awaited), dashed amber for timers; its label
 * shows the condition's alternatives or the delay, an inbox icon for data collection and a
 * pointer for "shown as a button". Clicking the label selects the arrow. Memoised. Zoomed far
 * out there is no label: too small to read, and each label costs a portal and a store
 * subscription, thousands of them on a big bot.
 */
/** Each kind's line colour and label classes (one set each: clsx does not resolve conflicts). */
const TONES: Record<Arrow['kind'], { stroke: string; label: string }> = {
  condition: { stroke: '#475569', label: 'border-slate-200 bg-white text-slate-700' },
  unconditional: { stroke: '#94a3b8', label: 'border-slate-200 bg-white text-slate-400' },
  continue: { stroke: '#059669', label: 'border-emerald-300 bg-emerald-50 text-emerald-800' },
  timer: { stroke: '#d97706', label: 'border-amber-300 bg-amber-50 text-amber-900' },
};

/** How an arrow's line is drawn: here in svg, and by the far-zoom drag on a canvas. */
export function arrowStroke(kind: Arrow['kind'], selected: boolean) {
  return {
    color: selected ? '#2f6fed' : TONES[kind].stroke,
    width: selected || kind === 'continue' ? 2.5 : 1.5,
    dash: kind === 'timer' ? [6, 4] : [],
  };
}

/** A block's box on the canvas, at its measured size (its usual size until measured). */
export const blockBox = (node: InternalNode | undefined) =>
  node ? (nodesBounds([{ ...node, position: node.internals.positionAbsolute }]) ?? undefined) : undefined;

export const ArrowEdge = memo(function ArrowEdge(props: EdgeProps<ArrowFlowEdge>) {
  const { sourceX, sourceY, targetX, targetY } = props;
  // Only a backward arrow reads its blocks' boxes (a store subscription each): they are few.
  if (isBackward({ source: { x: sourceX, y: sourceY }, target: { x: targetX, y: targetY } }))
    return <BackwardArrowEdge {...props} />;
  return <ArrowLine {...props} route={arrowRoute(props)} />;
});

function BackwardArrowEdge(props: EdgeProps<ArrowFlowEdge>) {
  const from = blockBox(useInternalNode(props.source));
  const to = blockBox(useInternalNode(props.target));
  return <ArrowLine {...props} route={arrowRoute(props, from, to)} />;
}

function ArrowLine({
  id,
  data,
  selected,
  markerEnd,
  route: [path, labelX, labelY],
}: EdgeProps<ArrowFlowEdge> & { route: ArrowRoute }) {
  const store = useStoreApi();
  const far = use(FarZoomContext);
  const arrow = data?.arrow;
  if (!arrow) return null;
  const timer = arrow.kind === 'timer';
  const continues = arrow.kind === 'continue';
  const label = arrowLabel(arrow);
  const line = arrowStroke(arrow.kind, !!selected);
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        markerEnd={markerEnd}
        style={{
          stroke: line.color,
          strokeWidth: line.width,
          strokeDasharray: line.dash.length ? line.dash.join(' ') : undefined,
        }}
      />
      {far ? null : (
        <EdgeLabelRenderer>
          {/* Not a button: the edge itself is the focusable, labelled control (see arrowToEdge). */}
          <div
            data-testid={`arrow-${arrow.id}`}
            title={`Arrow ${arrow.id} (${arrow.kind})`}
            onClick={() => store.getState().addSelectedEdges([id])}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            // No shadow: a dragged arrow's moving label with one had every drag frame rasterise
            // about 10 ms more on a big bot (bench/canvas.bench.ts).
            className={cn(
              'nodrag nopan pointer-events-auto absolute flex cursor-pointer max-w-48 items-center gap-1 rounded border px-1.5 py-px text-[10px]',
              selected ? 'border-brand-500 bg-brand-50 text-brand-700' : TONES[arrow.kind].label,
            )}
          >
            <LintBadge target={{ type: 'arrow', id: arrow.id }} />
            <ArrowFigures arrowId={arrow.id} />
            {timer ? <Timer className="size-3 shrink-0" aria-hidden /> : null}
            {continues ? <ChevronsRight className="size-3 shrink-0" aria-hidden /> : null}
            {arrow.collectInto !== undefined ? (
              <Inbox className="size-3 shrink-0 text-sky-600" aria-hidden />
            ) : null}
            {arrow.showAsButton ? <MousePointerClick className="size-3 shrink-0" aria-hidden /> : null}
            <span className="truncate">{label}</span>
            {arrow.collectInto ? (
              <span className="truncate font-mono text-sky-700">→ {arrow.collectInto}</span>
            ) : null}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}
