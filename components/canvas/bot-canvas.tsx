'use client';

import { useQuery } from '@tanstack/react-query';
import { Background, Controls, type Edge, MiniMap, ReactFlow } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useMemo, useState } from 'react';
import { SimulatorPanel } from '@/components/simulator/simulator-panel';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import type { BotSchema } from '@/lib/schema';
import { type BlockFlowNode, BlockNode } from './block-node';
import { ImportExport } from './import-export';

const nodeTypes = { block: BlockNode };

function toFlow(schema: BotSchema): { nodes: BlockFlowNode[]; edges: Edge[] } {
  return {
    nodes: schema.blocks.map((block) => ({
      id: String(block.id),
      type: 'block',
      position: block.position,
      data: { block },
    })),
    edges: schema.arrows.map((arrow) => ({
      id: `a${arrow.id}`,
      source: String(arrow.from),
      target: String(arrow.to),
      label: arrow.kind === 'timer' ? '⏱ timer' : arrow.condition?.alternatives || undefined,
      animated: arrow.kind === 'timer',
      style: arrow.kind === 'timer' ? { strokeDasharray: '6 4' } : undefined,
    })),
  };
}

export function BotCanvas({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const schema = useQuery(trpc.botSchema.get.queryOptions({ projectId }));
  const flow = useMemo(() => (schema.data ? toFlow(schema.data.schema) : null), [schema.data]);
  const [currentBlock, setCurrentBlock] = useState<number | null>(null);

  if (schema.error)
    return (
      <div className="p-6">
        <Alert tone="error">{schema.error.message}</Alert>
      </div>
    );
  if (!flow) return <p className="p-6 text-sm text-slate-500">Loading the bot…</p>;
  return (
    <div className="flex h-full w-full">
      <div
        className="relative h-full min-w-0 flex-1"
        data-testid="canvas"
        data-current-block={currentBlock ?? ''}
      >
        <ImportExport projectId={projectId} />
        {/* The simulator's current block, highlighted without re-rendering any node. */}
        {currentBlock !== null ? (
          <style>{`[data-block-id="${currentBlock}"] { outline: 3px solid #f59e0b; outline-offset: 2px; }`}</style>
        ) : null}
        <ReactFlow
          key={schema.data?.revision}
          defaultNodes={flow.nodes}
          defaultEdges={flow.edges}
          nodeTypes={nodeTypes}
          fitView
          minZoom={0.1}
        >
          <Background />
          <MiniMap pannable zoomable />
          <Controls />
        </ReactFlow>
      </div>
      <SimulatorPanel projectId={projectId} onCurrentBlock={setCurrentBlock} />
    </div>
  );
}
