import { useSyncExternalStore } from 'react';
import type { BotFlowNode } from './schema-to-flow';

/**
 * React Flow's nodes of the canvas, kept outside React state: every drag frame changes them, and
 * only the component that reads them (the one rendering React Flow) re-renders, not the editor
 * around it with its toolbar, panels and block editor.
 */
export interface NodesStore {
  get(): BotFlowNode[];
  /** Replaces the nodes with `update(current)`; listeners hear of it unless it returns them as they were. */
  set(update: (nodes: BotFlowNode[]) => BotFlowNode[]): void;
  subscribe(listener: () => void): () => void;
}

export function createNodesStore(initial: BotFlowNode[]): NodesStore {
  let nodes = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => nodes,
    set(update) {
      const next = update(nodes);
      if (next === nodes) return;
      nodes = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useNodes(store: NodesStore): BotFlowNode[] {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
