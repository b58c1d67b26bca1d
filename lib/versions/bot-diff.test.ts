import { describe, expect, it } from 'vitest';
import { type BotSchema, type BotSchemaInput, parseBotSchema } from '@/lib/schema';
import { diffBots, diffCounts, formatDiffValue, jsonChanges } from './bot-diff';

/** A bot as a file gives it, with the schema's defaults filled in as every loader does. */
function bot(input: Omit<BotSchemaInput, 'format'>): BotSchema {
  const parsed = parseBotSchema({ format: 'blockbot/schema@1', ...input });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.value;
}

const base = bot({
  blocks: [
    { id: 1, kind: 'start', name: 'Greeting', text: 'Hi!', trigger: { alternatives: '/start' } },
    {
      id: 2,
      kind: 'state',
      name: 'Menu',
      text: 'Pick one',
      position: { x: 300, y: 0 },
      buttons: [{ text: 'Prices' }, { text: 'Delivery' }],
    },
    { id: 3, kind: 'not_state', name: 'Reminder', text: 'Still there?', position: { x: 600, y: 0 } },
  ],
  arrows: [
    { id: 1, from: 1, to: 2, kind: 'continue' },
    { id: 2, from: 2, to: 3, kind: 'timer', timer: { delay: 5, unit: 'minutes' } },
  ],
});

describe('diffBots', () => {
  it('finds nothing between a bot and itself, whatever the key order', () => {
    const reordered = JSON.parse(
      JSON.stringify(base, (_key, value) =>
        value && typeof value === 'object' && !Array.isArray(value)
          ? Object.fromEntries(Object.entries(value).reverse())
          : value,
      ),
    );
    const diff = diffBots(base, reordered);
    expect(diffCounts(diff).total).toBe(0);
    expect(diff.blocks.moved).toEqual([]);
  });

  it('lists added and removed blocks and arrows, naming the blocks an arrow joins', () => {
    const after = bot({
      blocks: [...base.blocks.filter((b) => b.id !== 3), { id: 4, kind: 'state', name: 'Address' }],
      arrows: [base.arrows[0], { id: 3, from: 2, to: 4, kind: 'unconditional' }],
    });
    const diff = diffBots(base, after);
    expect(diff.blocks.added).toEqual([{ id: 4, name: 'Address', kind: 'state' }]);
    expect(diff.blocks.removed).toEqual([{ id: 3, name: 'Reminder', kind: 'not_state' }]);
    expect(diff.blocks.changed).toEqual([]);
    // A removed arrow names its blocks as they were; an added one, as they are.
    expect(diff.arrows.removed).toEqual([{ id: 2, kind: 'timer', from: '#2 Menu', to: '#3 Reminder' }]);
    expect(diff.arrows.added).toEqual([{ id: 3, kind: 'unconditional', from: '#2 Menu', to: '#4 Address' }]);
    expect(diffCounts(diff)).toMatchObject({ blocksAdded: 1, blocksRemoved: 1, arrowsAdded: 1, total: 4 });
  });

  it('gives each changed field its path with the value before and after', () => {
    const after = bot({
      blocks: [
        { ...base.blocks[0], trigger: { alternatives: '/start;hello' } },
        {
          ...base.blocks[1],
          name: 'Main menu',
          buttons: [{ text: 'Prices' }, { text: 'Shipping' }, { text: 'Call me' }],
          request: { url: 'https://example.com/menu' },
        },
        { ...base.blocks[2], kind: 'state' },
      ],
      arrows: base.arrows,
    });
    const diff = diffBots(base, after);
    expect(diff.blocks.changed.map((b) => b.id)).toEqual([1, 2, 3]);
    expect(diff.blocks.changed[0].changes).toEqual([
      { path: 'trigger.alternatives', before: '/start', after: '/start;hello' },
    ]);
    const menu = diff.blocks.changed[1];
    expect(menu.name).toBe('Main menu');
    expect(menu.moved).toBe(false);
    expect(menu.changes).toEqual(
      expect.arrayContaining([
        { path: 'name', before: 'Menu', after: 'Main menu' },
        { path: 'buttons[1].text', before: 'Delivery', after: 'Shipping' },
        // A new button, and a request the block did not have: each one change, with no before.
        { path: 'buttons[2]', after: { type: 'reply', text: 'Call me' } },
        {
          path: 'request',
          after: {
            type: 'GET',
            url: 'https://example.com/menu',
            headers: '',
            params: '',
            storedValues: '',
            checkParamsFormat: true,
          },
        },
      ]),
    );
    // The unchanged first button is not reported.
    expect(menu.changes.some((c) => c.path.startsWith('buttons[0]'))).toBe(false);
    expect(menu.changes).toHaveLength(4);
    expect(diff.blocks.changed[2].changes).toEqual([{ path: 'kind', before: 'not_state', after: 'state' }]);
  });

  it('reports a removed field with no after value', () => {
    const after = bot({
      blocks: [{ ...base.blocks[0], trigger: undefined }, ...base.blocks.slice(1)],
      arrows: base.arrows,
    });
    expect(diffBots(base, after).blocks.changed[0].changes).toEqual([
      { path: 'trigger', before: { alternatives: '/start', match: 'exact', expression: '', ignore: '' } },
    ]);
  });

  it('lists a block only moved apart, and flags a changed block that moved too', () => {
    const after = bot({
      blocks: [
        { ...base.blocks[0], position: { x: 10, y: 20 } },
        { ...base.blocks[1], position: { x: 320, y: 0 }, text: 'Pick one, please' },
        base.blocks[2],
      ],
      arrows: base.arrows,
    });
    const diff = diffBots(base, after);
    expect(diff.blocks.moved).toEqual([
      { id: 1, name: 'Greeting', kind: 'start', before: { x: 0, y: 0 }, after: { x: 10, y: 20 } },
    ]);
    expect(diff.blocks.changed).toEqual([
      {
        id: 2,
        name: 'Menu',
        kind: 'state',
        moved: true,
        changes: [{ path: 'text', before: 'Pick one', after: 'Pick one, please' }],
      },
    ]);
    // Moves are not changes clients see: they stay out of the total.
    expect(diffCounts(diff)).toMatchObject({ blocksMoved: 1, blocksChanged: 1, total: 1 });
  });

  it('names the blocks of an arrow pointed elsewhere, and its own changed settings', () => {
    const after = bot({
      blocks: base.blocks,
      arrows: [
        { ...base.arrows[0], to: 3 },
        { ...base.arrows[1], timer: { delay: 10, unit: 'minutes' }, cancelIfLeft: false },
      ],
    });
    const diff = diffBots(base, after);
    expect(diff.arrows.changed).toEqual([
      {
        id: 1,
        kind: 'continue',
        from: '#1 Greeting',
        to: '#3 Reminder',
        changes: [{ path: 'to', before: '#2 Menu', after: '#3 Reminder' }],
      },
      {
        id: 2,
        kind: 'timer',
        from: '#2 Menu',
        to: '#3 Reminder',
        changes: [
          { path: 'timer.delay', before: 5, after: 10 },
          { path: 'cancelIfLeft', before: true, after: false },
        ],
      },
    ]);
  });

  it('compares a button list with its hint form as one change of shape', () => {
    const after = bot({
      blocks: [
        base.blocks[0],
        { ...base.blocks[1], buttons: { hint: 'Reply with a number', buttons: [{ text: 'Prices' }] } },
        base.blocks[2],
      ],
      arrows: base.arrows,
    });
    const [menu] = diffBots(base, after).blocks.changed;
    expect(menu.changes).toHaveLength(1);
    expect(menu.changes[0].path).toBe('buttons');
  });

  it('reads an empty bot against a bot as everything added', () => {
    const diff = diffBots(bot({ blocks: [], arrows: [] }), base);
    expect(diffCounts(diff)).toMatchObject({ blocksAdded: 3, arrowsAdded: 2, total: 5 });
  });
});

describe('jsonChanges', () => {
  it('compares lists item by item and reports items beyond the shorter list', () => {
    expect(jsonChanges({ lists: [1, 2] }, { lists: [1, 3, 4] })).toEqual([
      { path: 'lists[1]', before: 2, after: 3 },
      { path: 'lists[2]', after: 4 },
    ]);
    expect(jsonChanges([1, 2], [1])).toEqual([{ path: '[1]', before: 2 }]);
  });
});

describe('formatDiffValue', () => {
  it('never leaves a side blank', () => {
    expect(formatDiffValue(undefined)).toBe('(none)');
    expect(formatDiffValue('')).toBe('(empty)');
    expect(formatDiffValue('Hi\nthere')).toBe('Hi\nthere');
    expect(formatDiffValue(false)).toBe('no');
    expect(formatDiffValue(5)).toBe('5');
    expect(formatDiffValue({ text: 'Yes' })).toBe('{"text":"Yes"}');
  });
});
