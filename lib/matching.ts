import { compileConditionRegex, matchesEveryText } from '@/lib/condition-regex';
import type { Condition } from '@/lib/schema';

/**
 * Whether a client's message matches a condition's alternatives (bot-semantics §2). Pure, so
 * the engine, condition arrows, start triggers and quick replies all match the same way.
 */

export const FUZZY_THRESHOLD = 0.7;
/** Regexes written by designers run on at most this much text (matching is linear in it). */
const REGEX_INPUT_LIMIT = 2000;

export function normaliseText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

export function splitAlternatives(alternatives: string): string[] {
  return alternatives
    .split(';')
    .map((a) => a.trim())
    .filter(Boolean);
}

/** Removes the condition's strings to ignore (separated by `;`) before matching. */
function withoutIgnored(message: string, ignore: string): string {
  let text = message;
  for (const piece of splitAlternatives(ignore)) text = text.split(normaliseText(piece)).join(' ');
  return normaliseText(text);
}

function words(text: string): Set<string> {
  return new Set(text.split(/[^\p{L}\p{N}_]+/u).filter(Boolean));
}

/** `(price plan|tariff) (buy|connect)`: space = AND, `|` = OR inside a group. */
export function parseKeywordPattern(pattern: string): string[][][] {
  const groups: string[][][] = [];
  const re = /\(([^)]*)\)|([^\s()]+)/g;
  for (const m of normaliseText(pattern).matchAll(re)) {
    const body = m[1] ?? m[2];
    const options = body
      .split('|')
      .map((o) => o.trim().split(' ').filter(Boolean))
      .filter((o) => o.length);
    if (options.length) groups.push(options);
  }
  return groups;
}

function matchesKeywords(message: string, pattern: string): boolean {
  const present = words(message);
  const groups = parseKeywordPattern(pattern);
  return (
    groups.length > 0 &&
    groups.every((options) => options.some((option) => option.every((w) => present.has(w))))
  );
}

/** 1 − Levenshtein distance / longer length. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = current;
  }
  return 1 - previous[b.length] / longer;
}

/** The alternative that matched, or null. Regex mode takes the whole text as one pattern. */
export function matchCondition(
  message: string,
  condition: Pick<Condition, 'alternatives' | 'match' | 'ignore'>,
): string | null {
  const text = withoutIgnored(message, condition.ignore ?? '');
  if (condition.match === 'regex') {
    const source = condition.alternatives.trim();
    const compiled = source ? compileConditionRegex(source) : null;
    // A pattern that does not compile never matches; the builder shows its error.
    return compiled?.ok && compiled.regex.test(message.slice(0, REGEX_INPUT_LIMIT))
      ? condition.alternatives
      : null;
  }
  for (const alternative of splitAlternatives(condition.alternatives)) {
    const wanted = normaliseText(alternative);
    const hit =
      condition.match === 'exact'
        ? text === wanted
        : condition.match === 'keywords'
          ? matchesKeywords(text, wanted)
          : similarity(text, wanted) > FUZZY_THRESHOLD;
    if (hit) return alternative;
  }
  return null;
}

type Matched = Pick<Condition, 'alternatives' | 'match' | 'ignore'> & { expression?: string };

/** Whether a condition holds for every message, whatever it says: a regex that matches every text. */
export function matchesEverything(condition: Matched): boolean {
  const source = condition.alternatives.trim();
  // An empty pattern is no condition at all: it never matches (matchCondition).
  return (
    !condition.expression?.trim() && condition.match === 'regex' && source !== '' && matchesEveryText(source)
  );
}

const ignoreKey = (ignore: string | undefined) =>
  splitAlternatives(ignore ?? '')
    .map(normaliseText)
    .join(';');

/**
 * Whether `first` holds for every message `later` holds for, so a `later` checked after it never
 * fires (lint). Only what is sure: `first` has no comparison expression (it could fail) and
 * matches everything, or both remove the same strings to ignore and each alternative of `later`
 * is matched by `first` (an exact one, checked as the text it needs; another, by the same
 * alternative in the same mode), or both are the same regex.
 */
export function conditionCovers(first: Matched, later: Matched): boolean {
  if (first.expression?.trim()) return false;
  if (matchesEverything(first)) return true;
  if (later.match === 'regex' || first.match === 'regex') {
    const source = later.alternatives.trim();
    return later.match === first.match && source !== '' && source === first.alternatives.trim();
  }
  const alternatives = splitAlternatives(later.alternatives);
  if (!alternatives.length || ignoreKey(first.ignore) !== ignoreKey(later.ignore)) return false;
  // `later` exact holds only for the message that reads as its alternative once the strings to
  // ignore are removed, and `first` sees the same text.
  if (later.match === 'exact')
    return alternatives.every((a) => matchCondition(normaliseText(a), { ...first, ignore: '' }) !== null);
  const own = new Set(splitAlternatives(first.alternatives).map(normaliseText));
  return first.match === later.match && alternatives.every((a) => own.has(normaliseText(a)));
}
