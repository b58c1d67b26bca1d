import { describe, expect, it } from 'vitest';
import { newBlock } from './schema-ops';
import { matchingFormulaLine, searchBlocks } from './search';

const blocks = [
  { ...newBlock('state', 1, { x: 0, y: 0 }), name: 'Prices', text: 'The plan costs #{price}' },
  { ...newBlock('state', 2, { x: 0, y: 0 }), name: 'Cart', formula: 'base = 100\nPrice = base * 1.2' },
  { ...newBlock('not_state', 3, { x: 0, y: 0 }), name: 'Tax', formula: 'tax = 0.2' },
];

describe('block search in formulas', () => {
  it('finds a block by its formula, after names and texts', () => {
    expect(searchBlocks(blocks, 'price').map((b) => b.id)).toEqual([1, 2]);
    expect(searchBlocks(blocks, 'TAX =').map((b) => b.id)).toEqual([3]);
    expect(searchBlocks(blocks, 'base * 1.2').map((b) => b.id)).toEqual([2]);
  });

  it('shows the formula line that matched', () => {
    expect(matchingFormulaLine(blocks[1], 'price')).toBe('Price = base * 1.2');
    expect(matchingFormulaLine(blocks[0], 'price')).toBeUndefined();
    expect(matchingFormulaLine(blocks[1], ' ')).toBeUndefined();
  });
});
