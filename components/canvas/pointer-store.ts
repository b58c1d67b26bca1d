'use client';

import { useSyncExternalStore } from 'react';

type Point = { x: number; y: number };

/**
 * The other designers' pointers by tab (flow coordinates), apart from the rest of their presence:
 * a pointer's move re-renders the pointer layer only, not the editor or its blocks.
 */
export interface PointerStore {
  set(tab: string, pointer: Point | null): void;
  clear(): void;
  get(): ReadonlyMap<string, Point>;
  subscribe(listener: () => void): () => void;
}

export function createPointerStore(): PointerStore {
  let pointers: ReadonlyMap<string, Point> = new Map();
  const listeners = new Set<() => void>();
  const replace = (next: ReadonlyMap<string, Point>) => {
    pointers = next;
    for (const listener of listeners) listener();
  };
  return {
    set(tab, pointer) {
      const before = pointers.get(tab);
      if (before?.x === pointer?.x && before?.y === pointer?.y) return;
      const next = new Map(pointers);
      if (pointer) next.set(tab, pointer);
      else next.delete(tab);
      replace(next);
    },
    clear() {
      if (pointers.size) replace(new Map());
    },
    get: () => pointers,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const usePointers = (store: PointerStore) =>
  useSyncExternalStore(store.subscribe, store.get, store.get);
