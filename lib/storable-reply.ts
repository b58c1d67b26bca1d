/** What the run's log says when a reply had to be changed to be stored. */
export const NUL_REPLACED =
  'The reply contained NUL bytes (U+0000), which cannot be stored; they were replaced with U+FFFD.';

/**
 * PostgreSQL text and jsonb cannot hold U+0000, so a third party's reply is kept with U+FFFD in
 * its place: raw, and where JSON spells it `\u0000` (parsing would bring it back). `replaced`
 * says a NUL was. Half an emoji (a lone surrogate) JSON spells as `\ud83d` is replaced too, as
 * jsonb refuses it (a submission of the value would fail its event); raw text holds none, the
 * body having been decoded. An escaped backslash followed by `u0000` is text and is left alone.
 */
export function replaceNul(text: string): { text: string; replaced: boolean } {
  if (!text.includes('\0') && !/\\u(0000|[dD][89a-fA-F])/.test(text)) return { text, replaced: false };
  let replaced = false;
  const out = text.replace(
    /\\\\|\\u0000|\0|\\u[dD][89abAB][0-9a-fA-F]{2}(?:\\u[dD][c-fC-F][0-9a-fA-F]{2})?|\\u[dD][c-fC-F][0-9a-fA-F]{2}/g,
    (found) => {
      if (found === '\\\\' || found.length === 12) return found; // an escaped backslash, a whole pair
      if (found.length === 6 && found !== '\\u0000') return '\\ufffd'; // half a pair
      replaced = true;
      return found === '\0' ? '\uFFFD' : '\\ufffd';
    },
  );
  return { text: out, replaced };
}
