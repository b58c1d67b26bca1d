import { LIMITS } from './limits';
import { CHARS_PER_STEP, type Meter } from './meter';

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
    /** The in-flow function whose call failed, when one did: the engine acts on some (ask_operator). */
    readonly call?: string,
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

/**
 * Numbers as people write them: a decimal comma (`2,5`), and groups of three digits apart by
 * spaces (`1 500`, `1 500,25`). A comma is always the decimal separator, so `1,500` is one and
 * a half (thousands are written with spaces); `1,2,3` is no number.
 */
const WRITTEN = /^\s*([-+]?)(\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+)(?:[.,](\d+))?\s*$/;

/** A number written with a decimal comma or spaced thousands, as JavaScript writes it (`-1500.25`), or null. */
function writtenNumber(text: string): string | null {
  const m = WRITTEN.exec(text);
  return m ? `${m[1]}${m[2].replace(/\D/g, '')}${m[3] ? `.${m[3]}` : ''}` : null;
}

/** A numeric text as JavaScript writes the number, or null. */
function numericText(text: string): string | null {
  if (!mayBeNumeric(text)) return null;
  return NUMERIC.test(text) ? text.trim() : writtenNumber(text);
}

/** Numbers, and strings that look like numbers (bot-semantics §4), as numbers; otherwise null. */
export function asNumber(v: Value): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && mayBeNumeric(v)) {
    if (NUMERIC.test(v)) return Number(v);
    const written = writtenNumber(v);
    if (written !== null) return Number(written);
  }
  return null;
}

/** A decimal written exactly: ±0.digits × 10^point, without leading or trailing zeros (0: sign 0). */
interface Decimal {
  sign: number;
  digits: string;
  point: number;
}

const DECIMAL = /^([-+]?)(\d*)(?:\.(\d*))?(?:e([-+]?\d+))?$/i;

function decimalOf(text: string): Decimal | null {
  const m = DECIMAL.exec(text);
  // (Infinity, from text like '1e400' negated, has no digits.)
  if (!m) return null;
  let digits = m[2] + (m[3] ?? '');
  let point = m[2].length + Number(m[4] ?? 0);
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead).replace(/0+$/, '');
  point -= lead;
  return { sign: digits ? (m[1] === '-' ? -1 : 1) : 0, digits, point };
}

/** The exact decimal of a numeric text, or null. */
const decimalOfText = remembered((text) => {
  const n = numericText(text);
  return n === null ? null : decimalOf(n);
});

/**
 * Whether a numeric text's number is exactly the text's value as far as comparing goes: any
 * two decimals of at most 15 significant digits (in the range of ordinary numbers) convert to
 * different numbers. Longer ones (ids of 18 digits) compare digit by digit, so never collide.
 */
function convertsExactly(text: string): boolean {
  const d = decimalOfText(text);
  return d !== null && d.digits.length <= 15 && (d.sign === 0 || (d.point > -300 && d.point < 300));
}

/** asNumber for comparing: null for a text that does not convert exactly (compare it with compareExactly). */
export function asExactNumber(v: Value): number | null {
  if (typeof v === 'string') return convertsExactly(v) ? asNumber(v) : null;
  return asNumber(v);
}

/** Two numbers (numeric texts among them) compared by their exact decimal values. */
function compareExactly(a: Value, b: Value, na: number, nb: number): number {
  const x = typeof a === 'string' ? decimalOfText(a) : decimalOf(String(na));
  const y = typeof b === 'string' ? decimalOfText(b) : decimalOf(String(nb));
  if (!x || !y) return na - nb;
  if (x.sign !== y.sign || x.sign === 0) return x.sign - y.sign;
  const magnitude = x.point - y.point || (x.digits < y.digits ? -1 : x.digits > y.digits ? 1 : 0);
  return x.sign * magnitude;
}

/** Two numbers as comparing sees them: exactly when a text among them is too long for a number. */
function compareNumbers(a: Value, b: Value, na: number, nb: number): number {
  const inexact =
    (typeof a === 'string' && !convertsExactly(a)) || (typeof b === 'string' && !convertsExactly(b));
  return inexact ? compareExactly(a, b, na, nb) : na - nb;
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

/**
 * How a value reads in a message or a variable. A list or dict is measured before it is
 * written (see checkTextSize); the meter, when given, is charged for the work.
 */
export function toDisplayString(v: Value, meter?: Meter): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  const text = JSON.stringify(toJson(v, meter));
  meter?.work(text.length / CHARS_PER_STEP);
  // (The measure is a lower bound: escapes and long numbers are only known once written.)
  if (text.length > LIMITS.stringLength) throw tooLongAsText();
  return text;
}

/** A value as JSON data (dicts as objects without prototypes), measured first (see checkTextSize). */
export function toJson(v: Value, meter?: Meter): unknown {
  checkTextSize(v, meter);
  return jsonOf(v);
}

function jsonOf(v: Value): unknown {
  if (v instanceof Map) {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, x] of v) out[k] = jsonOf(x);
    return out;
  }
  if (Array.isArray(v)) return v.map(jsonOf);
  return v;
}

const tooLongAsText = () =>
  new FormulaError(`the value would be longer than ${LIMITS.stringLength} characters as text`);

/**
 * A list or dict that would be longer than the text limit once written out (stored, str(),
 * to_json(), given out of the formula) is refused before anything is built: a list that holds
 * one list many times reads as every copy of it, however little memory it takes. The measure
 * stops soon after the limit, so its work is bounded whatever the value; each item visited is
 * a step of the meter's run.
 */
export function checkTextSize(v: Value, meter?: Meter): void {
  if ((Array.isArray(v) || v instanceof Map) && textSize(v, LIMITS.stringLength, meter) > LIMITS.stringLength)
    throw tooLongAsText();
}

/** At least the characters of a value as JSON text; past `room`, any larger number. */
function textSize(v: Value, room: number, meter: Meter | undefined): number {
  if (typeof v === 'string') return v.length + 2;
  if (Array.isArray(v)) {
    meter?.work(v.length);
    // Brackets and commas.
    let size = v.length + 1;
    for (let i = 0; i < v.length && size <= room; i++) size += textSize(v[i], room - size, meter);
    return size;
  }
  if (v instanceof Map) {
    meter?.work(v.size);
    let size = v.size + 1;
    for (const [k, x] of v) {
      if (size > room) break;
      // The key in quotes and a colon.
      size += k.length + 3 + textSize(x, room - size, meter);
    }
    return size;
  }
  // A number takes at least one character.
  return v === null || typeof v === 'boolean' ? 4 : 1;
}

export function fromJson(json: unknown): Value {
  if (json === null || json === undefined) return null;
  if (Array.isArray(json)) return json.map(fromJson);
  if (typeof json === 'object')
    return new Map(Object.entries(json as object).map(([k, x]) => [k, fromJson(x)]));
  if (typeof json === 'number' || typeof json === 'string' || typeof json === 'boolean') return json;
  return null;
}

/**
 * A deep copy of a list or dict, for a caller that may change it; other values as they are.
 * Only values that could be written out as text are copied (see checkTextSize), so the copy is
 * bounded even where the value holds one list many times.
 */
export function copyValue(v: Value, meter?: Meter): Value {
  checkTextSize(v, meter);
  return copyOf(v);
}

function copyOf(v: Value): Value {
  if (Array.isArray(v)) return v.map(copyOf);
  if (v instanceof Map) {
    const copy = new Map<string, Value>();
    for (const [k, x] of v) copy.set(k, copyOf(x));
    return copy;
  }
  return v;
}

/** A value → stored text. Lists and dicts as JSON, so deserializeValue reads them back. */
export function serializeValue(v: Value, meter?: Meter): string {
  return toDisplayString(v, meter);
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

/** Lists and dicts compare item by item; each pair of values compared is a step of the meter's run. */
export function valuesEqual(a: Value, b: Value, meter?: Meter): boolean {
  meter?.work(1);
  // A cleared or unset variable (None) equals the empty text.
  if (a === null || b === null) return a === b || a === '' || b === '';
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== null && nb !== null && typeof a !== 'boolean' && typeof b !== 'boolean')
    return compareNumbers(a, b, na, nb) === 0;
  if (typeof a === 'string' && typeof b === 'string') {
    const when = compareWhen(a, b);
    return when === null ? a === b : when === 0;
  }
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || a instanceof Map !== b instanceof Map)
    return false;
  // (A list or dict is equal to itself, however large.)
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i], meter)) return false;
    return true;
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, x] of a) if (!b.has(k) || !valuesEqual(x, b.get(k) as Value, meter)) return false;
    return true;
  }
  return false;
}

/**
 * Ordering: numbers (and numeric text) by value; dates, times and date-times, when both sides
 * are of one of those forms, in time; other texts alphabetically; other mixes are never ordered.
 */
export function compareValues(a: Value, b: Value): number | null {
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== null && nb !== null) return compareNumbers(a, b, na, nb);
  if (typeof a === 'string' && typeof b === 'string')
    return compareWhen(a, b) ?? (a < b ? -1 : a > b ? 1 : 0);
  return null;
}

/** Two dates, two times or two date-times in time order; null for any other pair of texts. */
function compareWhen(a: string, b: string): number | null {
  if (!mayBeNumeric(a) || !mayBeNumeric(b)) return null;
  const da = parseDate(a);
  if (da !== null) {
    const db = parseDate(b);
    return db === null ? null : da - db;
  }
  const ta = parseTime(a);
  if (ta !== null) {
    const tb = parseTime(b);
    return tb === null ? null : ta - tb;
  }
  const xa = parseDateAndTime(a);
  const xb = xa === null ? null : parseDateAndTime(b);
  return xa === null || xb === null ? null : xa - xb;
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

const DATE_TIME = /^\s*(\d{1,2}\.\d{1,2}\.\d{4})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?\s*$/;

/** `dd.mm.yyyy hh:mm[:ss]` (a real day and time), as an instant in UTC; otherwise null. */
export function parseDateAndTime(v: Value): number | null {
  return typeof v === 'string' && mayBeNumeric(v) ? dateAndTimeOf(v) : null;
}

const dateAndTimeOf = remembered((text) => {
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  // The date as the language reads it: 31.02 is refused, the years 1 to 99 are themselves.
  const day = dateOf(m[1]);
  const [h, min, sec] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
  if (day === null || h > 23 || min > 59 || sec > 59) return null;
  return day + ((h * 60 + min) * 60 + sec) * 1000;
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
