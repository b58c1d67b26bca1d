import { toWellFormed } from './template/encode';

/**
 * JSON for a jsonb parameter. PostgreSQL refuses a lone surrogate (half of a pair, as a formula
 * can leave by cutting an emoji in two), which JSON.stringify writes as an escape: such text is
 * stored with U+FFFD in its place, as the driver stores it in a text column.
 */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value);
  // Lone surrogates are the only ones JSON.stringify escapes; the test may also match the text
  // of an escaped backslash followed by `ud800`, and the second pass then changes nothing.
  if (!/\\u[dD][89a-fA-F]/.test(json)) return json;
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? toWellFormed(v) : v));
}
