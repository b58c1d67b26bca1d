import { describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT, type BotSchema, botSchemaSchema } from '@/lib/schema';
import { initialWatermark } from './ids';
import { BESIDE_GAP, importBeside } from './import-beside';
import { NODE_WIDTH } from './initial-viewport';

const bot = (input: unknown): BotSchema =>
  botSchemaSchema.parse({ format: BOT_SCHEMA_FORMAT, ...(input as object) });

const existing = bot({
  blocks: [
    { id: 1, kind: 'start', position: { x: 0, y: 100 } },
    { id: 4, kind: 'state', position: { x: 300, y: 200 } },
    { id: 5, kind: 'comment', position: { x: 600, y: 50 }, size: { width: 400, height: 100 } },
  ],
  arrows: [{ id: 3, from: 1, to: 4, kind: 'unconditional' }],
});
const imported = bot({
  blocks: [
    { id: 1, kind: 'start', name: 'Hello', position: { x: -50, y: 0 } },
    { id: 2, kind: 'state', name: 'Menu', position: { x: 250, y: 80 } },
  ],
  arrows: [
    { id: 1, from: 1, to: 2, kind: 'condition', condition: { alternatives: 'menu' } },
    { id: 2, from: 2, to: 1, kind: 'unconditional' },
  ],
});

describe('import beside the existing blocks', () => {
  it('gives the imported blocks and arrows new ids, remaps the arrow ends and keeps everything else', () => {
    const merged = importBeside(existing, imported, initialWatermark(existing, { nextBlockId: 9 }));
    expect(merged.blockIds).toEqual([9, 10]);
    expect(merged.arrowIds).toEqual([4, 5]);
    expect(merged.schema.blocks.slice(0, 3)).toEqual(existing.blocks);
    expect(merged.schema.blocks.slice(3).map((b) => [b.id, b.name])).toEqual([
      [9, 'Hello'],
      [10, 'Menu'],
    ]);
    expect(merged.schema.arrows.slice(1).map((a) => [a.id, a.from, a.to, a.kind])).toEqual([
      [4, 9, 10, 'condition'],
      [5, 10, 9, 'unconditional'],
    ]);
    expect(botSchemaSchema.safeParse(merged.schema).success).toBe(true);
    expect(merged.watermark).toEqual({ block: 10, arrow: 5 });
  });

  it('moves the imported layout to the right of the existing blocks, tops aligned, shapes kept', () => {
    const merged = importBeside(existing, imported, initialWatermark(existing));
    const right = 600 + 400; // the comment's right edge is the rightmost
    const [hello, menu] = merged.schema.blocks.slice(3);
    expect(hello.position).toEqual({ x: right + BESIDE_GAP, y: 50 });
    expect(menu.position).toEqual({ x: right + BESIDE_GAP + 300, y: 130 });
    // No imported block overlaps an existing one.
    for (const b of existing.blocks) expect(hello.position.x).toBeGreaterThan(b.position.x + NODE_WIDTH);
  });

  it('into an empty bot, keeps the imported positions', () => {
    const empty = bot({ blocks: [], arrows: [] });
    const merged = importBeside(empty, imported, initialWatermark(empty));
    expect(merged.schema.blocks.map((b) => b.position)).toEqual(imported.blocks.map((b) => b.position));
  });
});
