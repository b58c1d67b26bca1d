'use client';

import { type NodeProps, NodeResizer } from '@xyflow/react';
import { memo } from 'react';
import { cn } from '@/components/ui/cn';
import type { CommentFlowNode } from './schema-to-flow';

/** A comment block: a resizable sticky note, never executed (bot-semantics §1). */
export const CommentNode = memo(function CommentNode({ data, selected }: NodeProps<CommentFlowNode>) {
  const { block } = data;
  return (
    <>
      <NodeResizer isVisible={selected} minWidth={120} minHeight={60} color="#d97706" />
      <div
        data-testid={`block-${block.id}`}
        data-block-id={block.id}
        data-kind="comment"
        className={cn(
          'h-full w-full overflow-hidden rounded-md border bg-amber-100 px-3 py-2 text-xs text-amber-950 shadow-md',
          selected ? 'border-amber-500' : 'border-amber-300',
        )}
      >
        <div className="mb-1 flex items-center justify-between gap-2">
          <span className="truncate font-semibold">{block.name || 'Note'}</span>
          <span className="shrink-0 font-mono text-[10px] opacity-60">#{block.id}</span>
        </div>
        <p className="whitespace-pre-line">{block.text}</p>
      </div>
    </>
  );
});
