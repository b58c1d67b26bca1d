'use client';

import { Handle, type NodeProps, Position } from '@xyflow/react';
import { Globe, ListChecks, Paperclip, Sigma, TextCursorInput, Timer, Zap } from 'lucide-react';
import { memo, type ReactNode, use } from 'react';
import { cn } from '@/components/ui/cn';
import type { Block, InputType } from '@/lib/schema';
import { BlockFigures } from './analytics-overlay';
import { blockKindStyle } from './block-colors';
import { useIsCurrentBlock } from './current-block';
import { FarZoomContext } from './far-zoom';
import { LintBadge } from './lint-badge';
import {
  type BlockFlowNode,
  type BlockNodeData,
  type NodeButton,
  nodeButtons,
  truncate,
} from './schema-to-flow';

function NodeBadge({ icon, children, title }: { icon: ReactNode; children: ReactNode; title: string }) {
  return (
    <span
      title={title}
      className="inline-flex items-center gap-0.5 rounded bg-black/10 px-1 py-px text-[10px] font-medium not-italic"
    >
      {icon}
      {children}
    </span>
  );
}

/**
 * Handles centred on the block's edges with margins instead of React Flow's translate: a
 * transform on each of thousands of handles makes the browser's compositing of every drag
 * frame slower. Likewise colours with alpha below rather than `opacity`.
 */
const handleClass = '!size-3 !transform-none -mt-1.5';
/**
 * A button's handle sits on the block's right edge beside the button (the row is 14 px inside
 * it: padding and border), so an arrow visibly leaves from the button it follows.
 */
const buttonHandleClass = `${handleClass} -mr-1.5 !-right-3.5 !bg-brand-600 !border-white`;
/**
 * Zoomed out, a block is its name in large type on its kind's colour (see FarBlockNode). Its name
 * is cut in code to about two lines, not by CSS: a clipped element in each of thousands of
 * blocks slows compositing.
 */
const FAR_NAME_LENGTH = 32;

/**
 * A block on the canvas: kind colour, id and name, its trigger, text preview, buttons (its own
 * and those of arrows shown as a button) and badges; zoomed far out, only its name.
 * Memoised: it re-renders only when its node object changes or the zoom crosses FAR_ZOOM.
 */
export const BlockNode = memo(function BlockNode({ data, selected }: NodeProps<BlockFlowNode>) {
  const far = use(FarZoomContext);
  const buttons = nodeButtons(data);
  return far ? (
    <FarBlockNode block={data.block} buttons={buttons} selected={selected} />
  ) : (
    <NearBlockNode data={data} buttons={buttons} selected={selected} />
  );
});

interface DrawingProps {
  buttons: readonly NodeButton[];
  selected: boolean;
}

/**
 * The far drawing: a box of the kind's colour with the name large enough to read at that zoom,
 * and the kind, id and name on hover. A few plain elements: each element of thousands of blocks
 * costs style, layout and paint time on opening and on every drag frame.
 */
function FarBlockNode({ block, buttons, selected }: DrawingProps & { block: Block }) {
  const style = blockKindStyle[block.kind];
  const current = useIsCurrentBlock(block.id);
  return (
    <div
      data-testid={`block-${block.id}`}
      data-block-id={block.id}
      data-kind={block.kind}
      aria-current={current ? 'step' : undefined}
      title={`${style.label} #${block.id}: ${block.name || 'Untitled'}${current ? ' (the simulator’s conversation is here)' : ''}`}
      className={cn(
        'w-56 rounded-lg border-4 px-3 py-2 text-xl/6 font-semibold break-words',
        style.className,
        selected && 'ring-4 ring-brand-500 ring-offset-2',
      )}
    >
      <Handle type="target" position={Position.Left} className={`${handleClass} -ml-1.5`} />
      <Handle type="source" position={Position.Right} className={`${handleClass} -mr-1.5`} />
      {/* The buttons are not drawn, but their arrows still need their handles. */}
      {buttons.map((b) => (
        <Handle
          key={b.handle}
          id={b.handle}
          type="source"
          position={Position.Right}
          isConnectable={false}
          className={`${handleClass} -mr-1.5 invisible`}
        />
      ))}
      {block.name ? truncate(block.name, FAR_NAME_LENGTH) : <span className="text-current/50">Untitled</span>}
      <BlockFigures blockId={block.id} far />
    </div>
  );
}

function NearBlockNode({ data, buttons, selected }: DrawingProps & { data: BlockNodeData }) {
  const { block } = data;
  const style = blockKindStyle[block.kind];
  const current = useIsCurrentBlock(block.id);
  const title = `#${block.id}${block.name ? ` ${block.name}` : ''}`;
  return (
    <div
      data-testid={`block-${block.id}`}
      data-block-id={block.id}
      data-kind={block.kind}
      aria-current={current ? 'step' : undefined}
      className={cn(
        'w-56 rounded-lg border-2 px-3 py-2 text-xs shadow-sm',
        style.className,
        selected && 'ring-2 ring-brand-500 ring-offset-1',
      )}
    >
      <Handle
        type="target"
        position={Position.Left}
        className={`${handleClass} -ml-1.5`}
        title={`Arrows into ${title} end here`}
        aria-label={`Arrows into block ${title}`}
      />
      {/* First of the source handles: an arrow with no handle id leaves from the first. Beside
          buttons it moves up to the name, clear of the buttons' handles. */}
      <Handle
        type="source"
        position={Position.Right}
        className={cn(handleClass, '-mr-1.5', buttons.length && '!top-[35px]')}
        title="Drag to another block to draw an arrow (or choose it under Arrows in the block editor)"
        aria-label={`Arrow from block ${title}`}
      />
      {current ? <span className="sr-only">The simulator’s conversation is in this block.</span> : null}
      <div className="mb-0.5 flex items-center justify-between gap-2 text-[10px] uppercase tracking-wide text-current/70">
        <span>{style.label}</span>
        <span className="flex items-center gap-1">
          <LintBadge target={{ type: 'block', id: block.id }} />
          <span className="rounded bg-black/10 px-1 font-mono normal-case">#{block.id}</span>
        </span>
      </div>
      <p className="truncate font-semibold">
        {block.name || <span className="text-current/50">Untitled</span>}
      </p>
      <BlockDetails data={data} buttons={buttons} />
      <BlockFigures blockId={block.id} />
    </div>
  );
}

function BlockDetails({ data, buttons }: { data: BlockNodeData; buttons: readonly NodeButton[] }) {
  const { block, timerArrows } = data;
  const actions = block.actions;
  const hasActions = Boolean(
    actions && (actions.crmStateId || actions.addToLists.length || actions.removeFromLists.length),
  );
  return (
    <>
      {block.trigger?.alternatives ? (
        <p className="truncate font-mono text-[10px] text-current/80" title="Trigger">
          ⟶ {block.trigger.alternatives}
        </p>
      ) : null}
      {block.text ? (
        <p className="mt-1 line-clamp-3 whitespace-pre-line text-current/90">{block.text}</p>
      ) : null}
      {buttons.length ? (
        <ul className="mt-1.5 space-y-1" data-testid="node-buttons">
          {buttons.map((b) => (
            <li key={b.handle} className="relative">
              <span className="block truncate rounded border border-black/20 bg-white/70 px-1.5 py-px text-[10px] text-slate-800">
                {b.text}
              </span>
              <Handle
                id={b.handle}
                type="source"
                position={Position.Right}
                className={buttonHandleClass}
                title={`Drag to the block that button "${b.text}" leads to`}
                aria-label={`Arrow from button ${b.text}`}
              />
            </li>
          ))}
        </ul>
      ) : null}
      {block.input ? (
        <p className="mt-1 truncate text-[11px] text-slate-600" data-testid="block-input">
          <TextCursorInput className="mr-1 inline size-3 align-[-2px]" aria-hidden />
          asks {INPUT_WORDS[block.input.type]} → {block.input.variable}
        </p>
      ) : null}
      {block.formula || block.request || timerArrows || hasActions || block.attachments.length ? (
        <div className="mt-1.5 flex flex-wrap gap-1">
          {block.formula ? (
            <NodeBadge icon={<Sigma className="size-3" aria-hidden />} title="Formula">
              formula
            </NodeBadge>
          ) : null}
          {block.request ? (
            <NodeBadge
              icon={<Globe className="size-3" aria-hidden />}
              title={`Block request: ${block.request.url}`}
            >
              {block.request.type}
            </NodeBadge>
          ) : null}
          {timerArrows ? (
            <NodeBadge icon={<Timer className="size-3" aria-hidden />} title="Timer arrows">
              {timerArrows}
            </NodeBadge>
          ) : null}
          {hasActions ? (
            <NodeBadge icon={<Zap className="size-3" aria-hidden />} title="CRM and list actions">
              actions
            </NodeBadge>
          ) : null}
          {block.attachments.length ? (
            <NodeBadge icon={<Paperclip className="size-3" aria-hidden />} title="Attachments">
              {block.attachments.length}
            </NodeBadge>
          ) : null}
          {block.buttons && !Array.isArray(block.buttons) ? (
            <NodeBadge
              icon={<ListChecks className="size-3" aria-hidden />}
              title="Buttons as a numbered hint"
            >
              hint
            </NodeBadge>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/** How a block's input check reads on the canvas ("asks an e-mail → client.email"). */
const INPUT_WORDS: Record<InputType, string> = {
  email: 'an e-mail',
  phone: 'a phone',
  number: 'a number',
  date: 'a date',
  choice: 'a choice',
};
