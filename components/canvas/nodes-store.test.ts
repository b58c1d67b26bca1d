import { describe, expect, it } from 'vitest';
import { createNodesStore } from './nodes-store';
import { blockToNode } from './schema-to-flow';

const node = (id: number) =>
  blockToNode({
    id,
    kind: 'state',
    name: `Block ${id}`,
    position: { x: id * 300, y: 0 },
    text: '',
    attachments: [],
    formula: '',
  });

describe('createNodesStore', () => {
  it('tells its listeners of new nodes, and not of an update that keeps them', () => {
    const store = createNodesStore([node(1)]);
    let heard = 0;
    const unsubscribe = store.subscribe(() => heard++);
    const moved = [{ ...node(1), position: { x: 5, y: 5 } }];
    store.set(() => moved);
    expect(store.get()).toBe(moved);
    expect(heard).toBe(1);
    store.set((nodes) => nodes);
    expect(heard).toBe(1);
    unsubscribe();
    store.set(() => [node(2)]);
    expect(heard).toBe(1);
    expect(store.get().map((n) => n.id)).toEqual(['2']);
  });
});
