'use client';

import { createContext, use, useSyncExternalStore } from 'react';

/**
 * The simulator's current block, for the blocks on the canvas to say so to assistive
 * technology (`aria-current`). A store rather than a context value: a new value re-renders only
 * the block that was current and the one that is, not every block of a big bot. (The outline
 * others see is a style rule, bot-editor.tsx.)
 */
export interface CurrentBlockStore {
  set(id: number | null): void;
  get(): number | null;
  subscribe(listener: () => void): () => void;
}

export function createCurrentBlockStore(): CurrentBlockStore {
  let current: number | null = null;
  const listeners = new Set<() => void>();
  return {
    set(id) {
      if (id === current) return;
      current = id;
      for (const listener of listeners) listener();
    },
    get: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const CurrentBlockContext = createContext<CurrentBlockStore | null>(null);

const noSubscription = () => () => {};

/** Whether a block is the simulator's current one. */
export function useIsCurrentBlock(blockId: number): boolean {
  const store = use(CurrentBlockContext);
  return useSyncExternalStore(
    store?.subscribe ?? noSubscription,
    () => store?.get() === blockId,
    () => false,
  );
}
