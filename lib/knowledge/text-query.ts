import { STOP_WORDS } from './stop-words';

/**
 * The full-text side's queries for a question (tsqueries of the 'simple' configuration). Only
 * letters and digits pass, so a query's text is always a valid tsquery; stop words are left out
 * (they match every chunk). Ranking every match (ts_rank_cd) is the full-text search's cost, so
 * what is ranked is bounded: docs/knowledge-base.md, "Search".
 */

/** The question's distinct words worth searching for, in its order, at most `maxWords`. */
export function questionWords(question: string, maxWords = 8): string[] {
  return [...new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])]
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
    .slice(0, maxWords);
}

const pairsOf = (words: readonly string[], keep: (a: string, b: string) => boolean = () => true) =>
  words.flatMap((a, i) =>
    words
      .slice(i + 1)
      .filter((b) => keep(a, b))
      .map((b) => `${a} & ${b}`),
  );

/**
 * `pairs` matches chunks holding at least two of the question's words (`a & b | a & c | b & c`),
 * `any` those holding any (`a | b | c`). Null: no such query.
 */
export function textQueries(question: string, maxWords = 8): { pairs: string | null; any: string | null } {
  const words = questionWords(question, maxWords);
  const pairs = pairsOf(words);
  return { pairs: pairs.length ? pairs.join(' | ') : null, any: words.length ? words.join(' | ') : null };
}

/** A word and how many chunks hold it, counted up to a cap (`matches` ≥ the cap: common). */
export interface CountedWord {
  word: string;
  matches: number;
}

/**
 * The bounded queries, from the question's words and how many chunks hold each (counted by the
 * index up to `common`): words no chunk holds are dropped; `pairs` keeps only pairs with a word
 * rarer than `common` (two common words together still match thousands of chunks), or every
 * pair when all words are common; `any` is the rarest words, rarest first, while their chunks
 * add up to at most `budget` (the rarest alone when it holds more), so the any-word fallback
 * ranks at most about `budget` chunks and ranks the informative words' chunks, not every chunk
 * holding one common word.
 */
export function boundedTextQueries(
  counted: readonly CountedWord[],
  { common, budget }: { common: number; budget: number },
): { pairs: string | null; any: string | null } {
  const present = counted.filter((c) => c.matches > 0);
  const rare = new Set(present.filter((c) => c.matches < common).map((c) => c.word));
  const pairs = pairsOf(
    present.map((c) => c.word),
    (a, b) => !rare.size || rare.has(a) || rare.has(b),
  );
  const any: string[] = [];
  let total = 0;
  for (const c of [...present].sort((a, b) => a.matches - b.matches)) {
    if (any.length && total + c.matches > budget) break;
    any.push(c.word);
    total += c.matches;
  }
  return { pairs: pairs.length ? pairs.join(' | ') : null, any: any.length ? any.join(' | ') : null };
}
