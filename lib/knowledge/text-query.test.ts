import { describe, expect, it } from 'vitest';
import { boundedTextQueries, textQueries } from './text-query';

describe('full-text queries', () => {
  it('builds two-word and any-word tsqueries from letters and digits only', () => {
    expect(textQueries("What's the refund policy? (30 days) a & b | !")).toEqual({
      pairs: 'refund & policy | refund & 30 | refund & days | policy & 30 | policy & days | 30 & days',
      any: 'refund | policy | 30 | days',
    });
    expect(textQueries('?! -')).toEqual({ pairs: null, any: null });
    expect(textQueries('How do I?')).toEqual({ pairs: null, any: null });
    expect(textQueries('Where is the refund?')).toEqual({ pairs: null, any: 'refund' });
    expect(textQueries('Возврат товара')).toEqual({ pairs: 'возврат & товара', any: 'возврат | товара' });
  });

  it("bounds the queries by the words' rarity: common words only beside a rarer one", () => {
    const counted = [
      { word: 'refund', matches: 12 },
      { word: 'policy', matches: 500 },
      { word: 'order', matches: 500 },
      { word: 'zx9', matches: 0 },
      { word: 'ceramic', matches: 3 },
    ];
    expect(boundedTextQueries(counted, { common: 500, budget: 1000 })).toEqual({
      pairs: 'refund & policy | refund & order | refund & ceramic | policy & ceramic | order & ceramic',
      any: 'ceramic | refund | policy',
    });
    expect(boundedTextQueries(counted, { common: 500, budget: 100 }).any).toBe('ceramic | refund');
    // Every word common: every pair, and the any-word query is the commonest word alone.
    expect(
      boundedTextQueries(
        [
          { word: 'a1', matches: 500 },
          { word: 'b2', matches: 500 },
        ],
        { common: 500, budget: 100 },
      ),
    ).toEqual({ pairs: 'a1 & b2', any: 'a1' });
    expect(boundedTextQueries([{ word: 'zx9', matches: 0 }], { common: 500, budget: 100 })).toEqual({
      pairs: null,
      any: null,
    });
  });
});
