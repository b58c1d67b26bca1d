'use client';

import { useQuery } from '@tanstack/react-query';
import { useStoreApi } from '@xyflow/react';
import { useCallback, useRef } from 'react';
import type { ArrowFlowEdge, BotFlowNode } from '@/components/canvas/schema-to-flow';
import { useProjectId } from '@/components/projects/use-project-id';
import { useTRPC } from '@/components/trpc/client';
import { type KnownVariable, knownVariables } from '@/lib/formula';

/**
 * The bot's known variables for completion, read when a completion list opens (not on every
 * edit): the blocks and arrows come from the canvas's React Flow store, which the panels live
 * in, and the project constants from the project. Recomputed only when those changed.
 */
export function useKnownVariables(): () => readonly KnownVariable[] {
  const store = useStoreApi<BotFlowNode, ArrowFlowEdge>();
  const trpc = useTRPC();
  const projectId = useProjectId();
  const project = useQuery({
    ...trpc.project.get.queryOptions({ projectId: projectId ?? 0 }),
    enabled: projectId !== null,
    staleTime: 60_000,
  });
  const constants = project.data?.constants;
  const cache = useRef<{ nodes: unknown; edges: unknown; constants: unknown; value: KnownVariable[] }>(null);
  return useCallback(() => {
    const { nodes, edges } = store.getState();
    const last = cache.current;
    if (last && last.nodes === nodes && last.edges === edges && last.constants === constants)
      return last.value;
    const schema = {
      blocks: nodes.map((n) => n.data.block),
      arrows: edges.flatMap((e) => (e.data ? [e.data.arrow] : [])),
    };
    const value = knownVariables(
      schema,
      constants?.map((c) => c.name),
    );
    cache.current = { nodes, edges, constants, value };
    return value;
  }, [store, constants]);
}
