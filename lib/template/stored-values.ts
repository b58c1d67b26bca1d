import { isVariableName } from './limits';
import { maskPlaceholders } from './parse';

/**
 * Stored values: `data|items|0|price->price; status->client.status` (platform-interface, block
 * requests). Keys are kept as strings; a key of digits is an array index when the node there is an
 * array and an ordinary key otherwise, so `{"0": ...}` objects work too.
 */
export interface StoredValuePhrase {
  path: string[];
  variable: string;
  /** Offsets of the trimmed phrase in the text. */
  start: number;
  end: number;
}

export interface StoredValueParseError {
  message: string;
  start: number;
  end: number;
  /** Ordinal of the phrase among the `;`-separated pieces of the text, empty ones counted, from 0. */
  phraseIndex: number;
}

export interface StoredValuesParse {
  phrases: StoredValuePhrase[];
  errors: StoredValueParseError[];
}

/** Narrows [start, end) to skip surrounding whitespace. */
function trimSpan(text: string, start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  return [s, e];
}

function indexesOf(text: string, needle: string, start: number, end: number): number[] {
  const found: number[] = [];
  for (
    let i = text.indexOf(needle, start);
    i !== -1 && i + needle.length <= end;
    i = text.indexOf(needle, i + 1)
  ) {
    found.push(i);
  }
  return found;
}

/** Parses the Stored values field; bad phrases are reported with their position and the good ones kept. */
export function parseStoredValues(text: string): StoredValuesParse {
  // `;`, `|` and `->` inside an expression are not separators.
  const masked = maskPlaceholders(text);
  const phrases: StoredValuePhrase[] = [];
  const errors: StoredValueParseError[] = [];
  let pieceStart = 0;
  let phraseIndex = 0;
  while (pieceStart <= text.length) {
    const semicolon = masked.indexOf(';', pieceStart);
    const pieceEnd = semicolon === -1 ? text.length : semicolon;
    const phrase = parsePhrase(text, masked, pieceStart, pieceEnd, phraseIndex);
    if (phrase && 'path' in phrase) phrases.push(phrase);
    else if (phrase) errors.push(...phrase.errors);
    phraseIndex++;
    pieceStart = pieceEnd + 1;
  }
  return { phrases, errors };
}

function parsePhrase(
  text: string,
  masked: string,
  pieceStart: number,
  pieceEnd: number,
  phraseIndex: number,
): StoredValuePhrase | { errors: StoredValueParseError[] } | null {
  const [start, end] = trimSpan(text, pieceStart, pieceEnd);
  if (start === end) return null; // empty phrase, e.g. after a trailing `;`
  const errors: StoredValueParseError[] = [];
  const error = (message: string, s: number, e: number) =>
    errors.push({ message, start: s, end: e, phraseIndex });
  const shown = JSON.stringify(text.slice(start, end));

  const arrows = indexesOf(masked, '->', start, end);
  if (arrows.length === 0) {
    error(`${shown} has no '->': write <path>-><variable>, e.g. data|items|0|price->price`, start, end);
    return { errors };
  }
  if (arrows.length > 1) {
    error(`${shown} has more than one '->': write <path>-><variable>`, arrows[1], arrows[1] + 2);
    return { errors };
  }
  const arrow = arrows[0];

  const path: string[] = [];
  const [pathStart, pathEnd] = trimSpan(text, start, arrow);
  if (pathStart === pathEnd) {
    error("Missing path before '->'", start, arrow + 2);
  } else {
    let segStart = pathStart;
    for (const bar of [...indexesOf(masked, '|', pathStart, pathEnd), pathEnd]) {
      const [s, e] = trimSpan(text, segStart, bar);
      if (s === e)
        error(
          `Empty key in the path (key ${path.length + 1}); separate keys with a single '|'`,
          segStart,
          Math.min(bar + 1, pathEnd),
        );
      path.push(text.slice(s, e));
      segStart = bar + 1;
    }
  }

  const [varStart, varEnd] = trimSpan(text, arrow + 2, end);
  const variable = text.slice(varStart, varEnd);
  if (variable === '') {
    error("Missing variable name after '->'", arrow, arrow + 2);
  } else if (!isVariableName(variable) && !variable.includes('#{')) {
    // A name containing `#{...}` is completed at run time, so it cannot be checked here.
    error(
      `${JSON.stringify(variable)} is not a variable name (letters, digits, _ and . ; not starting with a digit)`,
      varStart,
      varEnd,
    );
  }
  return errors.length > 0 ? { errors } : { path, variable, start, end };
}

export interface StoredValue {
  variable: string;
  value: unknown;
}

export interface StoredValueError {
  /** Index into the `phrases` array given to extractStoredValues. */
  phraseIndex: number;
  variable: string;
  message: string;
}

export interface StoredValuesExtract {
  values: StoredValue[];
  errors: StoredValueError[];
}

function typeName(node: unknown): string {
  if (node === null) return 'null';
  if (node === undefined) return 'nothing';
  if (typeof node === 'string') return 'a string';
  if (typeof node === 'number') return 'a number';
  if (typeof node === 'boolean') return 'a boolean';
  return `a ${typeof node}`;
}

const INDEX = /^\d{1,15}$/;

/** One step down; an error message when the key is not there. Own keys only, so `__proto__` is plain data. */
function step(node: unknown, key: string, where: string): { node: unknown } | { error: string } {
  if (Array.isArray(node)) {
    if (!INDEX.test(key)) return { error: `${where} is an array: address its elements by index from 0` };
    const index = Number(key);
    if (index >= node.length) {
      const count = node.length === 1 ? '1 element' : `${node.length} elements`;
      return { error: `the array has ${count}` };
    }
    return { node: node[index] };
  }
  if (node instanceof Map) {
    return node.has(key) ? { node: node.get(key) } : { error: `${where} has no key ${JSON.stringify(key)}` };
  }
  if (typeof node === 'object' && node !== null) {
    if (Object.hasOwn(node, key)) return { node: (node as Record<string, unknown>)[key] };
    return { error: `${where} has no key ${JSON.stringify(key)}` };
  }
  return { error: `${where} is ${typeName(node)}, not an object or array` };
}

/**
 * Reads each phrase's path from a parsed JSON reply. A phrase that does not match gets an error naming
 * the path up to the failing key; the other phrases are still extracted. Objects and arrays are returned
 * as they are: the engine serialises them.
 */
export function extractStoredValues(
  phrases: readonly Pick<StoredValuePhrase, 'path' | 'variable'>[],
  json: unknown,
): StoredValuesExtract {
  const values: StoredValue[] = [];
  const errors: StoredValueError[] = [];
  phrases.forEach(({ path, variable }, phraseIndex) => {
    let node = json;
    for (let i = 0; i < path.length; i++) {
      const where = i === 0 ? 'the reply' : `'${path.slice(0, i).join('|')}'`;
      const next = step(node, path[i], where);
      if ('error' in next) {
        const message = `'${path.slice(0, i + 1).join('|')}' not found: ${next.error}`;
        errors.push({ phraseIndex, variable, message });
        return;
      }
      node = next.node;
    }
    values.push({ variable, value: node });
  });
  return { values, errors };
}

const MAX_SUGGEST_DEPTH = 64;
/** `;`, `|` and `->` are separators; `#{` would be substituted. */
const UNEXPRESSIBLE = /[;|]|->|#\{/;

/**
 * Paths of leaf values (strings, numbers, booleans, null) in document order, for the builder's
 * "pick a path" list. Keys that the syntax cannot express (empty, padded with spaces, or containing
 * `;`, `|`, `->` or `#{`) are skipped.
 */
export function suggestStoredValuePaths(json: unknown, max = 200): string[] {
  const paths: string[] = [];
  const walk = (node: unknown, prefix: string, depth: number) => {
    if (paths.length >= max || depth > MAX_SUGGEST_DEPTH) return;
    const child = (key: string, value: unknown) => {
      if (key === '' || key.trim() !== key || UNEXPRESSIBLE.test(key)) return;
      walk(value, prefix === '' ? key : `${prefix}|${key}`, depth + 1);
    };
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length && paths.length < max; i++) child(String(i), node[i]);
    } else if (node instanceof Map) {
      for (const [key, value] of node) if (paths.length < max) child(String(key), value);
    } else if (typeof node === 'object' && node !== null) {
      for (const key of Object.keys(node)) {
        if (paths.length < max) child(key, (node as Record<string, unknown>)[key]);
      }
    } else if (prefix !== '') {
      paths.push(prefix);
    }
  };
  walk(json, '', 0);
  return paths;
}
