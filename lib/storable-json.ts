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
    // Copied only once something in it changes: every event is walked, nearly always clean.
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item = wellFormed(value[i]);
      if (item !== value[i]) {
        copy ??= [...value];
        copy[i] = item;
      }
    }
    return (copy ?? value) as T;
  }
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype)
    return value;
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
  for (const key in record) {
    const item = wellFormed(record[key]);
    const fixedKey = toWellFormed(key);
    if (!copy) {
      if (item === record[key] && fixedKey === key) continue;
      copy = {};
      // The keys before this one, unchanged.
      for (const earlier in record) {
        if (earlier === key) break;
        copy[earlier] = record[earlier];
      }
    }
    copy[fixedKey] = item;
  }
  return (copy ?? value) as T;
}

/**
 * JSON for a jsonb parameter. PostgreSQL refuses a lone surrogate (half of a pair, as a text cut
 * to a length can leave: the run's log keeps a reply's first 10,000 characters), which
 * JSON.stringify writes as an escape: such text is stored with U+FFFD in its place, as the
 * driver stores it in a text column.
 */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value);
  // Lone surrogates are the only ones JSON.stringify escapes; the test may also match the text
  // of an escaped backslash followed by `ud800`, and the second pass then changes nothing.
  if (!/\\u[dD][89a-fA-F]/.test(json)) return json;
  return JSON.stringify(wellFormed(value));
}
