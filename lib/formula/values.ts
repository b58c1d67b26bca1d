/**
 * The formula language's own values. Dicts are Maps, so a key like `__proto__` is plain data;
 * nothing here ever touches a host object.
 */
export type Value = number | string | boolean | null | Value[] | Map<string, Value>;

/** A problem in a formula, with where it is; the only error the language throws. */
export class FormulaError extends Error {
  constructor(
    message: string,
    public line = 0,
    public column = 0,
  ) {
    super(message);
    this.name = 'FormulaError';
  }
}

export const typeName = (v: Value): string =>
  v === null
    ? 'None'
    : Array.isArray(v)
      ? 'list'
      : v instanceof Map
        ? 'dict'
        : typeof v === 'boolean'
          ? 'boolean'
          : typeof v;

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i;

/**
 * Numbers, dates and times start with white space, a sign, a digit or a dot, never with an
 * ASCII letter or a symbol after '9': most text is ruled out without a regular expression.
 */
export function mayBeNumeric(s: string): boolean {
  const c = s.charCodeAt(0);
  return !(c >= 0x3a && c <= 0x7f);
}

/** A pure function of short text, remembering its recent answers (formulas see the same texts again and again). */
function remembered<T>(fn: (text: string) => T): (text: string) => T {
  const answers = new Map<string, T>();
  return (text) => {
    if (text.length > 40) return fn(text);
    const known = answers.get(text);
    if (known !== undefined) return known;
    const answer = fn(text);
    if (answers.size >= 1000) answers.clear();
    answers.set(text, answer);
    return answer;
  };
}

/** Numbers, and strings that look like numbers (bot-semantics §4), as numbers; otherwise null. */
export function asNumber(v: Value): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && mayBeNumeric(v) && NUMERIC.test(v)) return Number(v);
  return null;
}

/**
 * Numbers stay finite: a result beyond ±1.8e308 (or of such a number, read from text) is an
 * error the designer sees, not an `Infinity` or `NaN` that would spread through variables.
 */
export function finite(n: number): number {
  if (Number.isFinite(n)) return n;
  throw new FormulaError(Number.isNaN(n) ? 'the result is not a number' : 'the result is too large');
}

export function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  if (!Number.isFinite(n)) return String(n);
  // 0.1 + 0.2 reads as 0.3, as a person expects.
  return String(Number(n.toPrecision(15)));
}

/** How a value reads in a message or a variable. */
export function toDisplayString(v: Value): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return JSON.stringify(toJson(v));
}

/** A value as JSON data (dicts as objects without prototypes). */
export function toJson(v: Value): unknown {
  if (v instanceof Map) {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, x] of v) out[k] = toJson(x);
    return out;
  }
  if (Array.isArray(v)) return v.map(toJson);
  return v;
}

export function fromJson(json: unknown): Value {
  if (json === null || json === undefined) return null;
  if (Array.isArray(json)) return json.map(fromJson);
  if (typeof json === 'object')
    return new Map(Object.entries(json as object).map(([k, x]) => [k, fromJson(x)]));
  if (typeof json === 'number' || typeof json === 'string' || typeof json === 'boolean') return json;
  return null;
}

/** A deep copy of a list or dict, for a caller that may change it; other values as they are. */
export function copyValue(v: Value): Value {
  if (Array.isArray(v)) return v.map(copyValue);
  if (v instanceof Map) {
    const copy = new Map<string, Value>();
    for (const [k, x] of v) copy.set(k, copyValue(x));
    return copy;
  }
  return v;
}

/** A value → stored text. Lists and dicts as JSON, so deserializeValue reads them back. */
export function serializeValue(v: Value): string {
  return toDisplayString(v);
}

/** Stored text → value: JSON lists and dicts come back as such, True/False as booleans, the rest stays text. */
export function deserializeValue(text: string): Value {
  const t = text.trim();
  if ((t.startsWith('[') && t.endsWith(']')) || (t.startsWith('{') && t.endsWith('}'))) {
    try {
      return fromJson(JSON.parse(t));
    } catch {
      return text;
    }
  }
  if (text === 'True') return true;
  if (text === 'False') return false;
  return text;
}

export function isTruthy(v: Value): boolean {
  if (v === null || v === false) return false;
  if (v === true) return true;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') {
    const n = asNumber(v);
    return n !== null ? n !== 0 : v.length > 0;
  }
  if (Array.isArray(v)) return v.length > 0;
  return v.size > 0;
}

export function valuesEqual(a: Value, b: Value): boolean {
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== null && nb !== null && typeof a !== 'boolean' && typeof b !== 'boolean') return na === nb;
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || a instanceof Map !== b instanceof Map)
    return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => valuesEqual(x, b[i]));
  if (a instanceof Map && b instanceof Map) {
    return a.size === b.size && [...a].every(([k, x]) => b.has(k) && valuesEqual(x, b.get(k) as Value));
  }
  return a === b;
}

/** Ordering: numbers (and numeric text) by value, texts alphabetically; other mixes are never ordered. */
export function compareValues(a: Value, b: Value): number | null {
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== null && nb !== null) return na - nb;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

// Dates: `dd.mm.yyyy` and `hh:mm` texts take part in arithmetic (bot-semantics §4).
const DATE = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\s*$/;
const TIME = /^\s*(\d{1,2}):(\d{2})\s*$/;

export function parseDate(v: Value): number | null {
  return typeof v === 'string' && mayBeNumeric(v) ? dateOf(v) : null;
}

const dateOf = remembered((text) => {
  const m = DATE.exec(text);
  if (!m) return null;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1) return null;
  // (Not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.)
  const check = new Date(0);
  const t = check.setUTCFullYear(y, mo - 1, d);
  return check.getUTCDate() === d && check.getUTCMonth() === mo - 1 ? t : null;
});

export function parseTime(v: Value): number | null {
  return typeof v === 'string' && mayBeNumeric(v) ? timeOf(v) : null;
}

const timeOf = remembered((text) => {
  const m = TIME.exec(text);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return null;
  return Number(m[1]) * 60 + Number(m[2]);
});

const pad = (n: number) => String(n).padStart(2, '0');

/** Dates are written dd.mm.yyyy, so they run from 1 January of the year 1 to the end of 9999. */
const FIRST_DATE = -62_135_596_800_000;
const AFTER_LAST_DATE = 253_402_300_800_000;

/** An instant from date arithmetic, refused with a clear error past the dates a text can hold. */
export function checkDateRange(utcMs: number): number {
  if (!(utcMs >= FIRST_DATE && utcMs < AFTER_LAST_DATE))
    throw new FormulaError('the date would fall outside the years 1 to 9999');
  return utcMs;
}

export function formatDate(utcMs: number): string {
  const d = new Date(checkDateRange(utcMs));
  return `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${String(d.getUTCFullYear()).padStart(4, '0')}`;
}

export function formatTime(minutes: number): string {
  // Past this, minutes are no longer counted one by one.
  if (!Number.isSafeInteger(minutes)) throw new FormulaError('the number of minutes is too large');
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}
