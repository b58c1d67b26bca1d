'use client';

import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { memo } from 'react';
import { cn } from '@/components/ui/cn';
import type { Block } from '@/lib/schema';
import { blockKindStyle } from './block-colors';

export type BlockNodeData = { block: Block };
export type BlockFlowNode = Node<BlockNodeData, 'block'>;

/** Memoised so dragging one block does not re-render the others. */
export const BlockNode = memo(function BlockNode({ data, selected }: NodeProps<BlockFlowNode>) {
  const { block } = data;
  const style = blockKindStyle[block.kind];
  return (
    <div
      data-testid={`block-${block.id}`}
      data-block-id={block.id}
      className={cn(
        'w-56 rounded-lg border-2 px-3 py-2 text-xs shadow-sm',
        style.className,
        selected && 'ring-2 ring-brand-500',
      )}
    >
      {block.kind !== 'comment' ? <Handle type="target" position={Position.Left} /> : null}
      <div className="mb-1 flex items-center justify-between gap-2">
        <span className="truncate font-semibold">{block.name || style.label}</span>
        <span className="shrink-0 rounded bg-black/10 px-1 font-mono">#{block.id}</span>
      </div>
      {block.text ? <p className="line-clamp-3 whitespace-pre-line opacity-90">{block.text}</p> : null}
      {block.formula ? <p className="mt-1 font-mono opacity-70">ƒ formula</p> : null}
      {block.kind !== 'comment' ? <Handle type="source" position={Position.Right} /> : null}
    </div>
  );
});
