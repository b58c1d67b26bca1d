/** What the run's log says when a reply had to be changed to be stored. */
export const NUL_REPLACED =
  'The reply contained NUL bytes (U+0000), which cannot be stored; they were replaced with U+FFFD.';

/**
 * PostgreSQL text and jsonb cannot hold U+0000, so a third party's reply is kept with U+FFFD in
 * its place: raw, and where JSON spells it `\u0000` (parsing would bring it back). An escaped
 * backslash followed by `u0000` is text, not a NUL, and is left alone.
 */
export function replaceNul(text: string): { text: string; replaced: boolean } {
  if (!text.includes('\0') && !text.includes('\\u0000')) return { text, replaced: false };
  let replaced = false;
  const out = text.replace(/\\\\|\\u0000|\0/g, (found) => {
    if (found === '\\\\') return found;
    replaced = true;
    return found === '\0' ? '\uFFFD' : '\\ufffd';
  });
  return { text: out, replaced };
}
