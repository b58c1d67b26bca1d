import { describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT, type BotSchema } from '@/lib/schema';
import {
  addItems,
  applyLayout,
  deleteItems,
  newArrow,
  newBlock,
  newButtonArrow,
  replaceArrow,
  replaceBlock,
  withKind,
} from './schema-ops';
import {
  arrowLabel,
  layoutOf,
  outgoingExtras,
  reconcileEdges,
  reconcileNodes,
  schemaToFlow,
  timerLabel,
  truncate,
  VISIBLE_ONLY_FROM,
  withoutEstimates,
} from './schema-to-flow';
import { searchBlocks } from './search';

function bot(): BotSchema {
  return {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { ...newBlock('start', 1, { x: 0, y: 0 }), name: 'Welcome', text: 'Hi there' },
      { ...newBlock('state', 2, { x: 300, y: 0 }), name: 'Prices', text: 'The plan costs' },
      { ...newBlock('comment', 3, { x: 0, y: 300 }), text: 'A note about prices' },
    ],
    arrows: [
      {
        ...newArrow(1, 1, 2),
        kind: 'condition',
        condition: { alternatives: 'Prices; price', match: 'keywords', expression: '', ignore: '' },
        showAsButton: true,
      },
      { ...newArrow(2, 1, 2), kind: 'timer', timer: { delay: 1, unit: 'hours' } },
    ],
  };
}

describe('schema → flow', () => {
  it('maps blocks to nodes (notes to resizable comment nodes) and arrows to edges', () => {
    const { nodes, edges } = schemaToFlow(bot());
    expect(nodes.map((n) => [n.id, n.type])).toEqual([
      ['1', 'block'],
      ['2', 'block'],
      ['3', 'comment'],
    ]);
    expect(nodes[2]).toMatchObject({ width: 260, height: 140 });
    expect(nodes[0].data).toMatchObject({ arrowButtons: [{ arrowId: 1, text: 'Prices' }], timerArrows: 1 });
    expect(edges.map((e) => [e.id, e.source, e.sourceHandle, e.target, e.type])).toEqual([
      ['a1', '1', 'a1', '2', 'arrow'],
      ['a2', '1', null, '2', 'arrow'],
    ]);
  });

  it("gives a big bot's first nodes a size and handles until React Flow measures them, every arrow a handle", () => {
    const schema = bot();
    schema.blocks[1] = { ...schema.blocks[1], buttons: [{ type: 'reply', text: 'Yes' }] };
    // A small bot renders every block at once: no estimates.
    expect(schemaToFlow(schema).nodes.some((n) => n.handles || n.initialWidth)).toBe(false);
    const fillers = Array.from({ length: VISIBLE_ONLY_FROM }, (_, i) =>
      newBlock('state', 100 + i, { x: i * 300, y: 900 }),
    );
    const { nodes, edges } = schemaToFlow({ ...schema, blocks: [...schema.blocks, ...fillers] });
    const handles = (i: number) => nodes[i].handles?.map((h) => [h.type, h.id ?? null]);
    expect(nodes[0]).toMatchObject({ initialWidth: expect.any(Number), initialHeight: expect.any(Number) });
    expect(handles(0)).toEqual([
      ['target', null],
      ['source', null],
      ['source', 'a1'],
    ]);
    expect(handles(1)).toEqual([
      ['target', null],
      ['source', null],
      ['source', 'b0'],
    ]);
    // A note has no handles, and its own size.
    expect(nodes[2].handles).toEqual([]);
    for (const edge of edges) {
      const source = nodes.find((n) => n.id === edge.source);
      expect(source?.handles?.some((h) => h.type === 'source' && (h.id ?? null) === edge.sourceHandle)).toBe(
        true,
      );
    }
    // Measured nodes lose the estimates (React Flow would take them over its measurements); others keep them.
    const measured = withoutEstimates(nodes, new Set(['1']));
    expect(measured[0].handles).toBeUndefined();
    expect(measured[1]).toBe(nodes[1]);
    expect(measured[1].handles).toBeDefined();
    expect(withoutEstimates(nodes, new Set())).toBe(nodes);
  });

  it('labels arrows by their condition alternatives, timer or kind', () => {
    const [condition, timer] = bot().arrows;
    expect(arrowLabel(condition)).toBe('Prices | price');
    expect(arrowLabel(timer)).toBe('1 h');
    expect(arrowLabel(newArrow(9, 1, 2))).toBe('any reply');
    // Out of a block that does not wait for a reply, a new arrow continues at once.
    const greeting = { blocks: [newBlock('not_state', 1, { x: 0, y: 0 })], arrows: [] };
    expect(arrowLabel(newArrow(9, 1, 2, greeting))).toBe('continue');
    expect(timerLabel({ at: '01.02.2027 10:00' })).toBe('at 01.02.2027 10:00');
  });

  it('cuts long texts to the given length, ending them with an ellipsis', () => {
    expect(truncate('Prices', 6)).toBe('Prices');
    expect(truncate('Prices and plans', 6)).toBe('Price…');
    expect(truncate('Prices and plans', 6)).toHaveLength(6);
  });

  it('collects buttons only from condition arrows shown as a button', () => {
    const arrows = [{ ...bot().arrows[0], showAsButton: false }, bot().arrows[1]];
    expect(outgoingExtras(arrows).get(1)).toEqual({ arrowButtons: [], timerArrows: 1 });
  });
});

describe('buttons and their arrows on the canvas', () => {
  const withButtons = (schema: BotSchema, texts: string[]) =>
    replaceBlock(schema, {
      ...schema.blocks[1],
      buttons: texts.map((text) => ({ type: 'reply' as const, text })),
    });

  it('an arrow from a button leaves from its handle: the exact match of an own button, or the button it shows', () => {
    const schema = addItems(
      withButtons(bot(), ['Yes', 'No']),
      [],
      [newButtonArrow(3, 2, 1, 'No'), newArrow(4, 2, 1)],
    );
    expect(schema.arrows[2]).toMatchObject({
      kind: 'condition',
      condition: { alternatives: 'No', match: 'exact' },
      showAsButton: false,
    });
    const { edges } = schemaToFlow(schema);
    expect(edges.map((e) => e.sourceHandle)).toEqual(['a1', null, 'b1', null]);
  });

  it('moves an arrow to its button’s new handle when the buttons change, keeping the other edges', () => {
    const schema = addItems(withButtons(bot(), ['Yes', 'No']), [], [newButtonArrow(3, 2, 1, 'No')]);
    const { edges } = schemaToFlow(schema);
    const reordered = reconcileEdges(edges, withButtons(schema, ['No', 'Yes']));
    expect(reordered[2].sourceHandle).toBe('b0');
    expect(reordered[0]).toBe(edges[0]);
    expect(reconcileEdges(edges, withButtons(schema, ['Yes']))[2].sourceHandle).toBeNull();
    expect(reconcileEdges(edges, withButtons(schema, ['Yes', 'No', 'Maybe']))[2]).toBe(edges[2]);
  });
});

describe('reconciling nodes after a change', () => {
  it('keeps unchanged node objects, so memoised nodes do not re-render', () => {
    const schema = bot();
    const { nodes } = schemaToFlow(schema);
    const edited = replaceBlock(schema, { ...schema.blocks[1], text: 'New text' });
    const next = reconcileNodes(nodes, edited);
    expect(next[0]).toBe(nodes[0]);
    expect(next[2]).toBe(nodes[2]);
    expect(next[1]).not.toBe(nodes[1]);
    expect(next[1].data.block.text).toBe('New text');
  });

  it('updates the source node when an arrow stops being a button', () => {
    const schema = bot();
    const { nodes, edges } = schemaToFlow(schema);
    const edited = replaceArrow(schema, { ...schema.arrows[0], showAsButton: false });
    const next = reconcileNodes(nodes, edited);
    expect(next[0].data.arrowButtons).toEqual([]);
    expect(next[1]).toBe(nodes[1]);
    const nextEdges = reconcileEdges(edges, edited);
    expect(nextEdges[1]).toBe(edges[1]);
    expect(nextEdges[0]).not.toBe(edges[0]);
  });

  it('replaces the selection when asked and keeps it otherwise', () => {
    const schema = bot();
    const { nodes } = schemaToFlow(schema);
    const selected = reconcileNodes(nodes, schema, new Set([2]));
    expect(selected.map((n) => n.selected)).toEqual([false, true, false]);
    expect(selected[0]).toBe(nodes[0]);
    const kept = reconcileNodes(selected, deleteItems(schema, new Set([1])));
    expect(kept.map((n) => [n.id, n.selected])).toEqual([
      ['2', true],
      ['3', false],
    ]);
  });

  it('changes the node type when a block becomes a note', () => {
    const schema = bot();
    const { nodes } = schemaToFlow(schema);
    const next = reconcileNodes(nodes, replaceBlock(schema, withKind(schema.blocks[1], 'comment')));
    expect(next[1].type).toBe('comment');
    expect(next[1].data.block.size).toEqual({ width: 260, height: 140 });
  });
});

describe('flow → schema', () => {
  it('applies dragged positions and note sizes, sharing unmoved blocks', () => {
    const schema = bot();
    const { nodes } = schemaToFlow(schema);
    const moved = nodes.map((n) =>
      n.id === '2'
        ? { ...n, position: { x: 310.4, y: 20 } }
        : n.id === '3'
          ? { ...n, width: 400, height: 200 }
          : n,
    );
    const next = applyLayout(schema, layoutOf(moved));
    expect(next.blocks[0]).toBe(schema.blocks[0]);
    expect(next.blocks[1].position).toEqual({ x: 310, y: 20 });
    expect(next.blocks[2].size).toEqual({ width: 400, height: 200 });
    expect(applyLayout(next, layoutOf(moved))).toBe(next);
  });

  it('round-trips: the schema mapped to flow and back is the same schema', () => {
    const schema = bot();
    expect(applyLayout(schema, layoutOf(schemaToFlow(schema).nodes))).toBe(schema);
  });
});

describe('schema edits', () => {
  it('deleting a block deletes the arrows touching it', () => {
    const next = deleteItems(bot(), new Set([2]));
    expect(next.blocks.map((b) => b.id)).toEqual([1, 3]);
    expect(next.arrows).toEqual([]);
    expect(deleteItems(bot(), new Set(), new Set([2])).arrows.map((a) => a.id)).toEqual([1]);
  });

  it('a block becoming a trigger kind gets a trigger; leaving it drops the trigger', () => {
    const state = newBlock('state', 4, { x: 0, y: 0 });
    expect(withKind(state, 'not_state_condition').trigger).toEqual({
      alternatives: '',
      match: 'exact',
      expression: '',
      ignore: '',
    });
    expect(withKind(bot().blocks[0], 'state').trigger).toBeUndefined();
  });
});

describe('block search', () => {
  it('finds by id first, then by name, then by text', () => {
    const blocks = bot().blocks;
    expect(searchBlocks(blocks, '#2').map((b) => b.id)).toEqual([2]);
    expect(searchBlocks(blocks, '2').map((b) => b.id)).toEqual([2]);
    expect(searchBlocks(blocks, 'price').map((b) => b.id)).toEqual([2, 3]);
    expect(searchBlocks(blocks, 'HI THERE').map((b) => b.id)).toEqual([1]);
    expect(searchBlocks(blocks, '  ')).toEqual([]);
  });
});
