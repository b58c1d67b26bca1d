import { describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT, type BotSchema } from '@/lib/schema';
import { allocateIds, initialWatermark, maxId, observeIds } from './ids';
import { newBlock } from './schema-ops';

const schema = (ids: number[]): BotSchema => ({
  format: BOT_SCHEMA_FORMAT,
  blocks: ids.map((id) => newBlock('state', id, { x: 0, y: 0 })),
  arrows: [],
});

describe('block id allocation', () => {
  it('allocates above the highest existing id', () => {
    expect(maxId([])).toBe(0);
    expect(allocateIds(0, schema([1, 7, 3]).blocks, 3)).toEqual([8, 9, 10]);
  });

  it('never reuses an id seen in this session, even after its block was deleted', () => {
    let watermark = initialWatermark(schema([1, 2, 9]));
    expect(watermark.block).toBe(9);
    // Block 9 is deleted: the next id is still 10.
    watermark = observeIds(watermark, schema([1, 2]));
    expect(allocateIds(watermark.block, schema([1, 2]).blocks, 1)).toEqual([10]);
  });

  it('starts from the server next ids when it sends them', () => {
    expect(initialWatermark(schema([1, 2]), { nextBlockId: 20, nextArrowId: 5 })).toEqual({
      block: 19,
      arrow: 4,
    });
    expect(initialWatermark(schema([1, 30]), { nextBlockId: 20 }).block).toBe(30);
  });

  it('returns the same watermark object when nothing new was seen', () => {
    const watermark = initialWatermark(schema([4]));
    expect(observeIds(watermark, schema([1, 2]))).toBe(watermark);
  });
});
