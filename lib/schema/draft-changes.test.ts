import { describe, expect, it } from 'vitest';
import type { Arrow, Block, BotSchema } from './bot-schema';
import {
  applyDraftChanges,
  applyOthersChanges,
  diffDrafts,
  draftChangesSchema,
  renameIds,
} from './draft-changes';
import { plainArrow as arrow, stateBlock as block } from './testing/draft-fixtures';

const bot = (blocks: Block[], arrows: Arrow[] = []): BotSchema => ({
  format: 'blockbot/schema@1',
  blocks,
  arrows,
});

describe('a draft change', () => {
  it('is only what changed: the fields of a block, a new arrow, a deleted block', () => {
    const base = bot([block(1, { kind: 'start' }), block(2), block(3)], [arrow(1, 1, 2)]);
    const edited = bot(
      [base.blocks[0], { ...base.blocks[1], text: 'New text', position: { x: 5, y: 6 } }],
      [base.arrows[0], arrow(2, 2, 1)],
    );
    expect(diffDrafts(base, edited)).toEqual([
      {
        entity: 'block',
        op: 'set',
        id: 2,
        fields: { position: { x: 5, y: 6 }, text: 'New text' },
        base: { position: { x: 200, y: 0 }, text: 'Text 2' },
      },
      { entity: 'block', op: 'delete', id: 3 },
      { entity: 'arrow', op: 'add', id: 2, value: arrow(2, 2, 1) },
    ]);
    expect(applyDraftChanges(base, diffDrafts(base, edited))).toEqual(edited);
  });

  it('removes an optional field emptied (sent as null) and keeps every untouched block the same object', () => {
    const base = bot([block(1, { size: { width: 10, height: 20 } }), block(2)]);
    const edited = bot([{ ...block(1) }, base.blocks[1]]);
    const changes = diffDrafts(base, edited);
    expect(changes).toEqual([
      {
        entity: 'block',
        op: 'set',
        id: 1,
        fields: { size: null },
        base: { size: { width: 10, height: 20 } },
      },
    ]);
    const applied = applyDraftChanges(base, changes);
    expect(applied.blocks[0]).not.toHaveProperty('size');
    expect(applied.blocks[1]).toBe(base.blocks[1]);
  });

  it("merges two designers' changes of different fields of one block, and of different blocks", () => {
    const base = bot([block(1), block(2)]);
    const ann = diffDrafts(base, bot([{ ...base.blocks[0], text: "Ann's" }, base.blocks[1]]));
    const bob = diffDrafts(
      base,
      bot([
        { ...base.blocks[0], name: "Bob's" },
        { ...base.blocks[1], formula: 'x = 1' },
      ]),
    );
    const merged = applyDraftChanges(applyDraftChanges(base, ann), bob);
    expect(merged.blocks).toEqual([
      { ...base.blocks[0], text: "Ann's", name: "Bob's" },
      { ...base.blocks[1], formula: 'x = 1' },
    ]);
    // In either order.
    expect(applyDraftChanges(applyDraftChanges(base, bob), ann)).toEqual(merged);
  });

  it("drops a change to a block deleted meanwhile, and a deleted block's arrows go with it", () => {
    const base = bot([block(1), block(2)], [arrow(1, 1, 2)]);
    const deleted = applyDraftChanges(base, [{ entity: 'block', op: 'delete', id: 2 }]);
    expect(deleted).toEqual(bot([block(1)]));
    const late = applyDraftChanges(deleted, [
      { entity: 'block', op: 'set', id: 2, fields: { text: 'late' }, base: { text: 'Text 2' } },
    ]);
    expect(late).toEqual(deleted);
  });

  it('renames added blocks and arrows, with the arrows that point at them', () => {
    const changes = renameIds(
      [
        { entity: 'block', op: 'add', id: 3, value: block(3) },
        { entity: 'arrow', op: 'add', id: 2, value: arrow(2, 1, 3) },
        { entity: 'arrow', op: 'set', id: 1, fields: { to: 3 }, base: { to: 2 } },
      ],
      { blocks: { 3: 7 }, arrows: { 2: 9 } },
    );
    expect(changes).toEqual([
      { entity: 'block', op: 'add', id: 7, value: { ...block(3), id: 7 } },
      { entity: 'arrow', op: 'add', id: 9, value: arrow(9, 1, 7) },
      { entity: 'arrow', op: 'set', id: 1, fields: { to: 7 }, base: { to: 2 } },
    ]);
  });

  it('refuses, at the boundary, a field a block does not have, naming it', () => {
    const result = draftChangesSchema.safeParse([
      { entity: 'block', op: 'set', id: 1, fields: { colour: 'red' }, base: {} },
    ]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: [0, 'fields', 'colour'] });
    expect(result.error?.issues[0].message).toMatch(/a block has no field "colour"/);
  });
});

describe("others' changes over one's own edits", () => {
  const base = bot([block(1, { formula: 'price * 2' }), block(2)]);
  const theirs = diffDrafts(base, bot([block(1, { formula: 'round(price) * 2' }), block(2)]));

  it('merge a formula both typed in, character by character, in an undo step', () => {
    const mine = bot([block(1, { formula: 'price * 2 + tax' }), block(2)]);
    expect(applyOthersChanges(mine, theirs, false).blocks[0].formula).toBe('round(price) * 2 + tax');
    // Where the two cannot merge, the step takes theirs (Undo then keeps their change).
    const four = diffDrafts(base, bot([block(1, { formula: 'price * 4' }), block(2)]));
    const three = bot([block(1, { formula: 'price * 3' }), block(2)]);
    expect(applyOthersChanges(three, four, false).blocks[0].formula).toBe('price * 4');
  });

  it("leave the present's edit not sent yet as it is (the server merges it when sent), and take theirs elsewhere", () => {
    const mine = bot([block(1, { formula: 'price * 2 + tax' }), block(2, { text: 'Mine' })]);
    const both = diffDrafts(
      base,
      bot([block(1, { formula: 'round(price) * 2' }), block(2, { name: 'Theirs', text: 'Theirs' })]),
    );
    const after = applyOthersChanges(mine, both, true);
    expect(after.blocks[0].formula).toBe('price * 2 + tax');
    expect(after.blocks[1]).toMatchObject({ name: 'Theirs', text: 'Mine' });
    expect(applyOthersChanges(base, theirs, true).blocks[0].formula).toBe('round(price) * 2');
  });

  it('keep a position whole: a block moved by both goes where one of them put it', () => {
    const moved = diffDrafts(base, bot([block(1, { position: { x: 100, y: 50 } }), block(2)]));
    const mine = bot([{ ...base.blocks[0], position: { x: 300, y: 0 } }, block(2)]);
    expect(applyOthersChanges(mine, moved, true).blocks[0].position).toEqual({ x: 300, y: 0 });
    expect(applyOthersChanges(mine, moved, false).blocks[0].position).toEqual({ x: 100, y: 50 });
  });
});
