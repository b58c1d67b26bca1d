import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Block, type BotSchema, LIMITS } from '@/lib/schema';
import { applyDraftChanges as applyLocally, diffDrafts } from '@/lib/schema/draft-changes';
import { plainArrow as arrow, stateBlock as block } from '@/lib/schema/testing/draft-fixtures';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { loadBotSchema, saveBotSchema } from './bot-schema-store';
import { applyDraftChanges, type DraftAuthor, revisionsAfter } from './draft-changes-store';
import { createProject } from './project-service';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb?.close());

const ann: DraftAuthor = { id: null, name: 'Ann' };
const bob: DraftAuthor = { id: null, name: 'Bob' };

/** A project whose draft is three blocks in a chain; its revision and schema. */
async function projectWithBot() {
  const project = await createProject(tdb.prisma, {
    name: 'Team bot',
    owner: { email: 'owner@example.com' },
  });
  const schema: BotSchema = {
    format: 'blockbot/schema@1',
    blocks: [block(1, { kind: 'start' }), block(2), block(3)],
    arrows: [arrow(1, 1, 2), arrow(2, 2, 3)],
  };
  const { revision } = await saveBotSchema(tdb.prisma, project.id, schema);
  return { projectId: project.id, revision, schema };
}

/** One designer's edit of the draft as they saw it at `revision`, sent as the builder sends it. */
function edit(projectId: number, revision: number, before: BotSchema, after: BotSchema, author: DraftAuthor) {
  return applyDraftChanges(
    tdb.prisma,
    projectId,
    { changes: diffDrafts(before, after), baseRevision: revision },
    author,
  );
}

const withBlock = (schema: BotSchema, id: number, change: Partial<Block>): BotSchema => ({
  ...schema,
  blocks: schema.blocks.map((b) => (b.id === id ? { ...b, ...change } : b)),
});

describe('changes to a draft, per block and field', () => {
  it("keeps both designers' changes to different fields of one block and to other blocks", async () => {
    const { projectId, revision, schema } = await projectWithBot();
    const first = await edit(projectId, revision, schema, withBlock(schema, 2, { text: "Ann's text" }), ann);
    expect(first).toMatchObject({ revision: revision + 1, replaced: [], missing: [], others: [] });
    // Bob edited from the same revision: his change merges; Ann's comes back for his canvas.
    const second = await edit(
      projectId,
      revision,
      schema,
      withBlock(withBlock(schema, 2, { name: "Bob's name" }), 3, { formula: 'x = 1' }),
      bob,
    );
    expect(second.revision).toBe(revision + 2);
    expect(second.replaced).toEqual([]);
    expect(second.others).toEqual([
      {
        revision: revision + 1,
        author: 'Ann',
        changes: [
          { entity: 'block', op: 'set', id: 2, fields: { text: "Ann's text" }, base: { text: 'Text 2' } },
        ],
      },
    ]);
    const stored = (await loadBotSchema(tdb.prisma, projectId)).schema;
    expect(stored.blocks[1]).toMatchObject({ text: "Ann's text", name: "Bob's name" });
    expect(stored.blocks[2]).toMatchObject({ formula: 'x = 1' });
    // Each canvas that applies the others' revisions ends with the stored draft.
    const revisions = await revisionsAfter(tdb.prisma, projectId, revision, second.revision);
    const replayed = (revisions ?? []).reduce((draft, r) => applyLocally(draft, r.changes ?? []), schema);
    expect(replayed).toEqual(stored);
  });

  it('one field changed by two: the later wins and is told whose change it replaced', async () => {
    const { projectId, revision, schema } = await projectWithBot();
    await edit(projectId, revision, schema, withBlock(schema, 2, { text: "Ann's text" }), ann);
    const later = await edit(projectId, revision, schema, withBlock(schema, 2, { text: "Bob's text" }), bob);
    expect(later.replaced).toEqual([
      { entity: 'block', id: 2, field: 'text', theirs: "Ann's text", by: 'Ann' },
    ]);
    expect((await loadBotSchema(tdb.prisma, projectId)).schema.blocks[1].text).toBe("Bob's text");
  });

  it('a formula two typed in at once keeps both, character by character, and no one is told theirs was replaced', async () => {
    const { projectId, revision, schema } = await projectWithBot();
    const start = withBlock(schema, 3, { formula: 'total = price * 2' });
    const { revision: typed } = await edit(projectId, revision, schema, start, ann);
    await edit(projectId, typed, start, withBlock(start, 3, { formula: 'total = round(price) * 2' }), ann);
    const bobs = await edit(
      projectId,
      typed,
      start,
      withBlock(start, 3, { formula: 'total = price * 2 + tax' }),
      bob,
    );
    expect(bobs.replaced).toEqual([]);
    expect(bobs.applied).toEqual([
      {
        entity: 'block',
        op: 'set',
        id: 3,
        fields: { formula: 'total = round(price) * 2 + tax' },
        base: { formula: 'total = price * 2' },
        merged: ['formula'],
      },
    ]);
    const stored = (await loadBotSchema(tdb.prisma, projectId)).schema;
    expect(stored.blocks[2].formula).toBe('total = round(price) * 2 + tax');
    const revisions = await revisionsAfter(tdb.prisma, projectId, revision, bobs.revision);
    expect(revisions?.at(-1)?.changes).toEqual(bobs.applied);
    // Where both changed the same characters (Ann deletes what the others typed into), the later wins and is told.
    const clash = await edit(projectId, typed, start, withBlock(start, 3, { formula: 'total = 2' }), ann);
    expect(clash.replaced).toMatchObject([{ field: 'formula', by: 'Bob' }]);
    expect((await loadBotSchema(tdb.prisma, projectId)).schema.blocks[2].formula).toBe('total = 2');
  });

  it('does not apply an edit of a block deleted meanwhile, and says so; the rest of the edit is kept', async () => {
    const { projectId, revision, schema } = await projectWithBot();
    const deleted: BotSchema = {
      ...schema,
      blocks: schema.blocks.filter((b) => b.id !== 3),
      arrows: [schema.arrows[0]],
    };
    await edit(projectId, revision, schema, deleted, ann);
    const late = await edit(
      projectId,
      revision,
      schema,
      withBlock(withBlock(schema, 3, { text: 'too late' }), 2, { text: 'kept' }),
      bob,
    );
    expect(late.missing).toEqual([
      { entity: 'block', op: 'set', id: 3, fields: { text: 'too late' }, base: { text: 'Text 3' } },
    ]);
    const stored = (await loadBotSchema(tdb.prisma, projectId)).schema;
    expect(stored.blocks.map((b) => b.id)).toEqual([1, 2]);
    expect(stored.blocks[1].text).toBe('kept');
  });

  it('gives a block added under an id someone else took a new id, and its arrow follows', async () => {
    const { projectId, revision, schema } = await projectWithBot();
    const add = (name: string): BotSchema => ({
      ...schema,
      blocks: [...schema.blocks, block(4, { name })],
      arrows: [...schema.arrows, arrow(3, 3, 4)],
    });
    await edit(projectId, revision, schema, add("Ann's"), ann);
    const second = await edit(projectId, revision, schema, add("Bob's"), bob);
    expect(second.renamed).toEqual({ blocks: { 4: 5 }, arrows: { 3: 4 } });
    const stored = (await loadBotSchema(tdb.prisma, projectId)).schema;
    expect(stored.blocks.map((b) => [b.id, b.name])).toEqual([
      [1, 'Block 1'],
      [2, 'Block 2'],
      [3, 'Block 3'],
      [4, "Ann's"],
      [5, "Bob's"],
    ]);
    expect(stored.arrows.map((a) => [a.id, a.from, a.to])).toEqual([
      [1, 1, 2],
      [2, 2, 3],
      [3, 3, 4],
      [4, 3, 5],
    ]);
  });

  it("takes a deleted block's arrows with it, including one drawn to it meanwhile; an arrow to a gone block is not added", async () => {
    const { projectId, revision, schema } = await projectWithBot();
    const drawn: BotSchema = { ...schema, arrows: [...schema.arrows, arrow(3, 1, 3)] };
    await edit(projectId, revision, schema, drawn, ann);
    const deleted: BotSchema = { ...schema, blocks: schema.blocks.slice(0, 2), arrows: [schema.arrows[0]] };
    await edit(projectId, revision, schema, deleted, bob);
    expect((await loadBotSchema(tdb.prisma, projectId)).schema.arrows.map((a) => a.id)).toEqual([1]);
    const late = await edit(
      projectId,
      revision,
      schema,
      { ...schema, arrows: [...schema.arrows, arrow(5, 2, 3)] },
      ann,
    );
    expect(late.missing).toEqual([{ entity: 'arrow', op: 'add', id: 5, value: arrow(5, 2, 3) }]);
    expect((await loadBotSchema(tdb.prisma, projectId)).schema.arrows.map((a) => a.id)).toEqual([1]);
  });

  it('keeps an arrow the same change moves off a block it deletes (a bot replaced through changes)', async () => {
    const { projectId, revision, schema } = await projectWithBot();
    const replaced: BotSchema = {
      ...schema,
      blocks: schema.blocks.slice(0, 2),
      arrows: [schema.arrows[0], { ...schema.arrows[1], to: 1 }],
    };
    const result = await edit(projectId, revision, schema, replaced, ann);
    expect(result.missing).toEqual([]);
    expect((await loadBotSchema(tdb.prisma, projectId)).schema).toEqual(replaced);
    expect(applyLocally(schema, diffDrafts(schema, replaced))).toEqual(replaced);
  });

  it("records a field as stored, the schema's defaults filled in, so every canvas applies the same value", async () => {
    const { projectId, revision, schema } = await projectWithBot();
    const result = await applyDraftChanges(
      tdb.prisma,
      projectId,
      {
        changes: [
          {
            entity: 'block',
            op: 'set',
            id: 2,
            fields: { buttons: [{ text: 'Yes' }] },
            base: { buttons: null },
          },
        ],
        baseRevision: revision,
      },
      ann,
    );
    const stored = (await loadBotSchema(tdb.prisma, projectId)).schema;
    expect(stored.blocks[1].buttons).toEqual([{ type: 'reply', text: 'Yes' }]);
    expect(result.applied).toEqual([
      {
        entity: 'block',
        op: 'set',
        id: 2,
        fields: { buttons: stored.blocks[1].buttons },
        base: { buttons: null },
      },
    ]);
    const [logged] = (await revisionsAfter(tdb.prisma, projectId, revision, result.revision)) ?? [];
    expect(applyLocally(schema, logged.changes ?? [])).toEqual(stored);
  });

  it('refuses a bad value naming the block and field, and loses nothing saved before', async () => {
    const { projectId, revision, schema } = await projectWithBot();
    const bad = edit(projectId, revision, schema, withBlock(schema, 2, { formula: 'x = (' }), ann);
    await expect(bad).rejects.toThrow(/block 2, formula/);
    const tooLong = edit(
      projectId,
      revision,
      schema,
      withBlock(schema, 2, { name: 'n'.repeat(10_000) }),
      ann,
    );
    await expect(tooLong).rejects.toThrow(/block 2, name/);
    const after = await loadBotSchema(tdb.prisma, projectId);
    expect(after).toEqual({ revision, schema });
    await expect(
      applyDraftChanges(
        tdb.prisma,
        projectId,
        { changes: [{ entity: 'block', op: 'move', id: 2 }], baseRevision: revision },
        ann,
      ),
    ).rejects.toThrow(/changes\[0\]\.op/);
  });

  it('refuses start blocks over the limit of trigger blocks', async () => {
    const { projectId, revision, schema } = await projectWithBot();
    const many: BotSchema = {
      ...schema,
      blocks: [
        ...schema.blocks,
        ...Array.from({ length: LIMITS.triggerBlocks }, (_, i) => block(10 + i, { kind: 'start' })),
      ],
    };
    await expect(edit(projectId, revision, schema, many, ann)).rejects.toThrow(
      /start and not_state_condition blocks/,
    );
    expect((await loadBotSchema(tdb.prisma, projectId)).revision).toBe(revision);
  });

  it('a whole bot saved is one revision that tells the other canvases to reload; a revision no longer kept says the same', async () => {
    const { projectId, revision, schema } = await projectWithBot();
    const saved = await saveBotSchema(tdb.prisma, projectId, withBlock(schema, 2, { text: 'imported' }), {
      author: ann,
    });
    expect(await revisionsAfter(tdb.prisma, projectId, revision, saved.revision)).toEqual([
      { revision: saved.revision, author: 'Ann', changes: null },
    ]);
    const change = await edit(projectId, revision, schema, withBlock(schema, 3, { text: 'x' }), bob);
    expect(change.others).toEqual([{ revision: saved.revision, author: 'Ann', changes: null }]);
    await tdb.prisma.draftChange.deleteMany({ where: { projectId, revision: saved.revision } });
    expect(await revisionsAfter(tdb.prisma, projectId, revision, change.revision)).toBeNull();
  });
});
