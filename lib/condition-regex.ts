import { RE2JS } from 're2js';

/**
 * Regular expressions that designers write (condition arrows, start triggers, quick replies),
 * compiled by RE2: matching takes time linear in the text, so no pattern can freeze the server
 * (`^(a+)+$` on forty a's and a '!'). The engine and the builder both compile here, so the
 * builder shows exactly the error the engine meets. Case-insensitive, with Unicode case folding.
 */
export type ConditionRegex = { ok: true; regex: RE2JS } | { ok: false; error: string };

const LINEAR = 'regular expressions here run in linear time (RE2 syntax)';

/**
 * JavaScript's `\u0041` and `\u{1F600}` as RE2's `\x{0041}`, so patterns written for the
 * browser's regular expressions keep working; an escaped backslash is passed over whole.
 */
function withRe2Escapes(source: string): string {
  if (!source.includes('\\u')) return source;
  return source.replace(/\\(?:u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]+)\}|[\s\S])/g, (whole, four, braced) =>
    four || braced ? `\\x{${four ?? braced}}` : whole,
  );
}

function explain(error: unknown, source: string): string {
  const e = error as { error?: string; input?: string | null; message?: string };
  const at = (e.input ?? '').replace(/^\(\?i\)/, '') || source;
  if (/^\\([1-9]|k)/.test(at)) return `backreferences like ${at} are not supported: ${LINEAR}`;
  if (/^\(\?(=|!|<=|<!)/.test(at))
    return `lookahead and lookbehind like ${at.slice(0, at[2] === '<' ? 4 : 3)} are not supported: ${LINEAR}`;
  return e.error ? `${e.error}: ${at}` : String(e.message ?? error);
}

const cache = new Map<string, ConditionRegex>();

export function compileConditionRegex(source: string): ConditionRegex {
  let compiled = cache.get(source);
  if (!compiled) {
    try {
      compiled = { ok: true, regex: RE2JS.compile(withRe2Escapes(source), RE2JS.CASE_INSENSITIVE) };
    } catch (error) {
      compiled = { ok: false, error: explain(error, source) };
    }
    if (cache.size >= 1000) cache.clear();
    cache.set(source, compiled);
  }
  return compiled;
}

/** A pattern's error, for the builder to show; null when it compiles. */
export function conditionRegexError(source: string): string | null {
  const compiled = compileConditionRegex(source);
  return compiled.ok ? null : compiled.error;
}

/** One character of each kind RE2's assertions tell apart: a word character, a line break, any other. */
const PROBES = ['a', '\n', ' '];
const escaped = (c: string) => `\\x{${c.charCodeAt(0).toString(16)}}`;

function probe(pattern: string, text: string): boolean {
  try {
    return RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE).test(text);
  } catch {
    return false;
  }
}

/**
 * Whether a pattern matches every message, for lint (a condition after it never fires). Sure
 * when true, never guessed: the pattern matches the empty text, and it matches an empty string
 * at the start of any text (`.*`, `^`, `x?`) or at the end of any (`$`). What an empty match at
 * the start or end depends on is only the assertions there (`^ $ \A \z \b \B`), which see no
 * further than one character, so one text of each kind of character stands for all texts.
 */
export function matchesEveryText(source: string): boolean {
  const compiled = compileConditionRegex(source);
  if (!compiled.ok || !compiled.regex.test('')) return false;
  const pattern = withRe2Escapes(source);
  const atStart = PROBES.every((c) => probe(`^(?:${pattern})${escaped(c)}`, c));
  return atStart || PROBES.every((c) => probe(`${escaped(c)}(?:${pattern})\\z`, c));
}
