import { describe, expect, it } from 'vitest';
import { conditionRegexError } from '@/lib/condition-regex';
import { regexIssue } from '@/lib/schema/validate';
import { matchCondition, parseKeywordPattern, similarity } from './matching';

const cond = (alternatives: string, match: 'exact' | 'keywords' | 'fuzzy' | 'regex', ignore = '') => ({
  alternatives,
  match,
  ignore,
});

describe('matching', () => {
  it('exact: case-insensitive, whitespace folded, any alternative', () => {
    expect(matchCondition('  YES ', cond('no;yes', 'exact'))).toBe('yes');
    expect(matchCondition('yes please', cond('no;yes', 'exact'))).toBeNull();
    expect(matchCondition('Buy   now', cond('buy now', 'exact'))).toBe('buy now');
    expect(matchCondition('', cond('', 'exact'))).toBeNull();
  });

  it('keywords: words anywhere; groups with space = AND and | = OR', () => {
    expect(parseKeywordPattern('(price plan|tariff) (buy|connect)')).toEqual([
      [['price', 'plan'], ['tariff']],
      [['buy'], ['connect']],
    ]);
    const c = cond('(price plan|tariff) (buy|connect)', 'keywords');
    expect(matchCondition('I want to buy the tariff', c)).not.toBeNull();
    expect(matchCondition('Connect me to your price plan, please!', c)).not.toBeNull();
    expect(matchCondition('What is the price?', c)).toBeNull();
    expect(matchCondition('buy a price list', c)).toBeNull();
    expect(matchCondition('What is the PRICE?', cond('cost;price', 'keywords'))).toBe('price');
    expect(matchCondition('priceless', cond('price', 'keywords'))).toBeNull();
  });

  it('fuzzy: similarity above 70 %', () => {
    expect(similarity('hello', 'hello')).toBe(1);
    expect(similarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7);
    expect(matchCondition('helo', cond('hello', 'fuzzy'))).toBe('hello');
    expect(matchCondition('yes plese', cond('yes please', 'fuzzy'))).toBe('yes please');
    expect(matchCondition('nope', cond('yes please', 'fuzzy'))).toBeNull();
    // exactly 70 % is not above it
    expect(similarity('abcdefghij', 'abcdefgxyz')).toBeCloseTo(0.7);
    expect(matchCondition('abcdefghij', cond('abcdefgxyz', 'fuzzy'))).toBeNull();
  });

  it('regex: the whole text is one case-insensitive pattern; a broken one never matches', () => {
    expect(matchCondition('order 12345', cond('^order \\d{5}$', 'regex'))).not.toBeNull();
    expect(matchCondition('ORDER 1', cond('^order \\d{5}$', 'regex'))).toBeNull();
    expect(matchCondition('a;b', cond('a;b', 'regex'))).not.toBeNull();
    expect(matchCondition('anything', cond('(', 'regex'))).toBeNull();
    expect(conditionRegexError('(')).toBe('missing closing ): (');
    expect(conditionRegexError('a+')).toBeNull();
    // Unicode case folding and JavaScript's \u escapes, as before.
    expect(matchCondition('ПРИВЕТ', cond('^привет$', 'regex'))).not.toBeNull();
    expect(matchCondition('A', cond('^\\u0061$', 'regex'))).not.toBeNull();
  });

  it('regex: a catastrophic pattern answers at once (linear-time matching)', () => {
    const message = `${'a'.repeat(40)}!`;
    expect(matchCondition(message, cond('^(a+)+$', 'regex'))).toBeNull();
    expect(matchCondition('a'.repeat(40), cond('^(a+)+$', 'regex'))).not.toBeNull();
    expect(matchCondition(`${'a'.repeat(2000)}!`, cond('(a|aa)*(b|a*)*c', 'regex'))).toBeNull();
  });

  it('regex: syntax a linear-time engine cannot run is refused with a clear error, the same in the builder', () => {
    expect(conditionRegexError('(a)\\1')).toBe(
      'backreferences like \\1 are not supported: regular expressions here run in linear time (RE2 syntax)',
    );
    expect(conditionRegexError('price(?= list)')).toBe(
      'lookahead and lookbehind like (?= are not supported: regular expressions here run in linear time (RE2 syntax)',
    );
    expect(conditionRegexError('(?<!no )thanks')).toMatch(
      /^lookahead and lookbehind like \(\?<! are not supported/,
    );
    expect(matchCondition('aa', cond('(a)\\1', 'regex'))).toBeNull();
    // The builder checks the whole text as one pattern, as the engine matches it.
    expect(regexIssue({ alternatives: '(a)\\1', match: 'regex' })).toBe(conditionRegexError('(a)\\1'));
    expect(regexIssue({ alternatives: 'yes;(no', match: 'regex' })).toBe('missing closing ): yes;(no');
  });

  it('strings to ignore are removed before matching', () => {
    expect(matchCondition('yes please', cond('yes', 'exact', 'please'))).toBe('yes');
    expect(matchCondition('well, yes!', cond('yes', 'exact', 'well,;!'))).toBe('yes');
  });
});
