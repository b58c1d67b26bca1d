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
