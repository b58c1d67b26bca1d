'use client';

import { useQuery } from '@tanstack/react-query';
import { applyNodeChanges, type NodeChange } from '@xyflow/react';
import { useMemo } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { type BotSchema, parseBotSchemaJson } from '@/lib/schema';
import { createNodesStore, type NodesStore } from './nodes-store';
import { type ArrowFlowEdge, type BotFlowNode, schemaToFlow } from './schema-to-flow';

/** A published version's own bot, drawn read-only on the canvas in place of the draft. */
export interface VersionView {
  version: number;
  schema: BotSchema;
  nodesStore: NodesStore;
  edges: ArrowFlowEdge[];
  /** React Flow's measurements of its nodes: kept in its own store, never the draft's. */
  onNodesChange(changes: NodeChange<BotFlowNode>[]): void;
}

/**
 * The bot of the version whose analytics are open (docs/analytics.md), so its figures are drawn
 * on the blocks and texts it had; null while the draft is that version (nothing to tell apart)
 * or no version is asked for. The draft's editor is left untouched meanwhile: nothing autosaves.
 */
export function useVersionView(projectId: number, version: number | null): VersionView | null {
  const trpc = useTRPC();
  const state = useQuery(trpc.versions.state.queryOptions({ projectId })).data;
  const draftIsIt = state && state.published?.number === version && !state.unpublishedChanges;
  const shown = version !== null && state && !draftIsIt ? version : null;
  const exported = useQuery({
    ...trpc.versions.export.queryOptions({ projectId, version: shown ?? 1 }),
    enabled: shown !== null,
  }).data;
  return useMemo(() => {
    if (shown === null || !exported) return null;
    const parsed = parseBotSchemaJson(exported.json);
    if (!parsed.ok) return null;
    const flow = schemaToFlow(parsed.value);
    const nodesStore = createNodesStore(flow.nodes);
    return {
      version: shown,
      schema: parsed.value,
      nodesStore,
      edges: flow.edges,
      onNodesChange: (changes) => nodesStore.set((nodes) => applyNodeChanges(changes, nodes)),
    };
  }, [shown, exported]);
}
