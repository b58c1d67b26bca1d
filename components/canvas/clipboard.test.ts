import { describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT, type BotSchema, botSchemaSchema } from '@/lib/schema';
import { copySelection, parseClipboard, pasteFragment, remapFragment, serializeClipboard } from './clipboard';
import { newArrow, newBlock } from './schema-ops';

function bot(): BotSchema {
  return {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { ...newBlock('start', 1, { x: 0, y: 0 }), name: 'Welcome' },
      { ...newBlock('state', 2, { x: 300, y: 0 }), name: 'Prices', text: 'Costs #{price}' },
      newBlock('state', 5, { x: 600, y: 0 }),
    ],
    arrows: [
      newArrow(1, 1, 2),
      { ...newArrow(2, 2, 5), kind: 'timer', timer: { delay: 5, unit: 'minutes' } },
    ],
  };
}

describe('copy and paste of blocks', () => {
  it('copies the selected blocks and only the arrows between them', () => {
    const fragment = copySelection(bot(), new Set([1, 2]));
    expect(fragment.blocks.map((b) => b.id)).toEqual([1, 2]);
    expect(fragment.arrows.map((a) => a.id)).toEqual([1]);
    expect(botSchemaSchema.safeParse(fragment).success).toBe(true);
  });

  it('round-trips through the clipboard text in the bot schema format', () => {
    const fragment = copySelection(bot(), new Set([1, 2]));
    const text = serializeClipboard(fragment);
    expect(JSON.parse(text).format).toBe(BOT_SCHEMA_FORMAT);
    expect(parseClipboard(text)).toEqual(fragment);
  });

  it('ignores clipboard text that is not a bot schema with blocks', () => {
    expect(parseClipboard('hello')).toBeNull();
    expect(parseClipboard('{"format":"other"}')).toBeNull();
    expect(parseClipboard(JSON.stringify({ format: BOT_SCHEMA_FORMAT, blocks: [], arrows: [] }))).toBeNull();
    expect(parseClipboard('{not json')).toBeNull();
  });

  it('allocates new ids above the max and the watermark, remapping arrow ends and moving positions', () => {
    const target = bot();
    const fragment = copySelection(target, new Set([1, 2, 5]));
    const remapped = remapFragment(fragment, target, { block: 7, arrow: 2 }, { x: 40, y: 40 });
    expect(remapped.blocks.map((b) => b.id)).toEqual([8, 9, 10]);
    expect([...remapped.blockIds]).toEqual([
      [1, 8],
      [2, 9],
      [5, 10],
    ]);
    expect(remapped.arrows.map((a) => [a.id, a.from, a.to])).toEqual([
      [3, 8, 9],
      [4, 9, 10],
    ]);
    expect(remapped.blocks[1]).toMatchObject({
      name: 'Prices',
      text: 'Costs #{price}',
      position: { x: 340, y: 40 },
    });
    expect(remapped.arrows[1].timer).toEqual({ delay: 5, unit: 'minutes' });
  });

  it('drops arrows whose other end was not copied (a hand-edited clipboard)', () => {
    const fragment = { ...copySelection(bot(), new Set([1])), arrows: bot().arrows };
    expect(remapFragment(fragment, bot(), { block: 0, arrow: 0 }, { x: 0, y: 0 }).arrows).toEqual([]);
  });

  it('pastes into another project: the result is a valid schema and the watermark moves up', () => {
    const source = copySelection(bot(), new Set([1, 2]));
    const other: BotSchema = {
      format: BOT_SCHEMA_FORMAT,
      blocks: [newBlock('start', 1, { x: 0, y: 0 }), newBlock('state', 2, { x: 0, y: 0 })],
      arrows: [newArrow(1, 1, 2)],
    };
    const pasted = pasteFragment(other, source, { block: 2, arrow: 1 }, { x: 0, y: 0 });
    expect(pasted.blockIds).toEqual([3, 4]);
    expect(pasted.arrowIds).toEqual([2]);
    expect(pasted.watermark).toEqual({ block: 4, arrow: 2 });
    expect(botSchemaSchema.safeParse(pasted.schema).success).toBe(true);
    // The original blocks are unchanged and shared.
    expect(pasted.schema.blocks[0]).toBe(other.blocks[0]);
    // Pasting again gets fresh ids once more.
    const again = pasteFragment(pasted.schema, source, pasted.watermark, { x: 40, y: 40 });
    expect(again.blockIds).toEqual([5, 6]);
  });
});
