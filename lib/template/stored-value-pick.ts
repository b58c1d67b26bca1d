import { parseStoredValues } from './stored-values';

/**
 * A variable name for a path picked from a test reply: its last key that is not an index
 * (`data|items|0|price` → `price`, `tags|0` → `tags_0`), made a valid name, and numbered when
 * the stored values already write that variable.
 */
export function variableForPath(path: string, storedValues: string): string {
  const keys = path.split('|');
  const named = keys.findLastIndex((k) => !/^\d+$/.test(k));
  const words = named === -1 ? ['value', ...keys] : keys.slice(named);
  const base = words
    .join('_')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  const name = /^[A-Za-z_]/.test(base) ? base : `value_${base}`.replace(/_+$/, '');
  const taken = new Set(parseStoredValues(storedValues).phrases.map((p) => p.variable));
  if (!taken.has(name)) return name;
  let n = 2;
  while (taken.has(`${name}_${n}`)) n++;
  return `${name}_${n}`;
}

/** The stored values with `path->variable` added as a new phrase. */
export function appendStoredValue(storedValues: string, path: string, variable: string): string {
  const text = storedValues.trimEnd();
  const phrase = `${path}->${variable}`;
  if (!text) return phrase;
  return text.endsWith(';') ? `${text} ${phrase}` : `${text}; ${phrase}`;
}
