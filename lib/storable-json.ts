import { toWellFormed } from './template/encode';

/**
 * The value with every lone surrogate (half of a pair, which JSON lets a client send as
 * `"\ud83d"`) in its strings and its object keys replaced with U+FFFD, at any depth; the value
 * itself when it has none. PostgreSQL refuses one in jsonb, and the driver stores one in text as
 * U+FFFD: text taken in this way is the text that is stored.
 */
export function wellFormed<T>(value: T): T {
  if (typeof value === 'string') return toWellFormed(value) as T;
  if (Array.isArray(value)) {
    const fixed = value.map((item) => wellFormed(item));
    return (fixed.some((item, i) => item !== value[i]) ? fixed : value) as T;
  }
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype)
    return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const fixed: [string, unknown] = [toWellFormed(key), wellFormed(item)];
    if (fixed[0] !== key || fixed[1] !== item) changed = true;
    return fixed;
  });
  return changed ? (Object.fromEntries(entries) as T) : value;
}

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
  return JSON.stringify(wellFormed(value));
}
