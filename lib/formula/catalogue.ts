import { checkList, listTooLong, textTooLong } from './evaluate';
import { hmacHex, md5, sha256 } from './hash';
import { LIMITS } from './limits';
import { CHARS_PER_STEP, type Meter } from './meter';
import type { Plan } from './plans';
import { zonedParts } from './time-zone';
import {
  asNumber,
  checkDateRange,
  compareValues,
  FormulaError,
  finite,
  formatDate,
  formatNumber,
  formatTime,
  fromJson,
  parseDate,
  parseDateAndTime,
  parseTime,
  toDisplayString,
  toJson,
  typeName,
  type Value,
  valuesEqual,
} from './values';

export interface ParamSpec {
  name: string;
  type: string;
  required: boolean;
  default?: string;
  /** Takes any number of further arguments. */
  rest?: boolean;
}

/** A built-in's view of its run; work that grows with its arguments is charged to it. */
export interface BuiltinContext extends Meter {
  random(): number;
  now(): Date;
  timeZone: string;
}

export type { Plan };

export interface BuiltinEntry {
  name: string;
  params: ParamSpec[];
  returns: string;
  doc: string;
  example: string;
  /** In-flow functions with I/O need the business or AI plan. */
  plan: 'free' | 'business';
  /** Called through the server's FormulaHost, not here. */
  host: boolean;
  group: string;
  impl?: (args: Value[], ctx: BuiltinContext) => Value;
}

/** `text: string, count?: number = 1, ...more: any` → parameter specs. */
function params(signature: string): ParamSpec[] {
  if (!signature.trim()) return [];
  return signature.split(',').map((part) => {
    const m = /^\s*(\.\.\.)?(\w+)(\?)?\s*:\s*([\w|[\]]+)(?:\s*=\s*(.+?))?\s*$/.exec(part);
    if (!m) throw new Error(`bad signature part ${part}`);
    return {
      name: m[2],
      type: m[4],
      required: !m[3] && !m[1],
      default: m[5],
      ...(m[1] ? { rest: true } : {}),
    };
  });
}

const entries: BuiltinEntry[] = [];
let group = '';

function pure(
  name: string,
  signature: string,
  returns: string,
  doc: string,
  example: string,
  impl: BuiltinEntry['impl'],
) {
  entries.push({
    name,
    params: params(signature),
    returns,
    doc,
    example,
    plan: 'free',
    host: false,
    group,
    impl,
  });
}

/** Returns the name, so the names of the in-flow functions are a type (`InFlowName`). */
function inFlow<const N extends string>(
  name: N,
  signature: string,
  returns: string,
  doc: string,
  example: string,
): N {
  entries.push({
    name,
    params: params(signature),
    returns,
    doc,
    example,
    plan: 'business',
    host: true,
    group,
  });
  return name;
}

// Argument helpers: clear errors naming the function's expectation.
const num = (v: Value, what: string): number => {
  const n = asNumber(v);
  if (n === null)
    throw new FormulaError(
      `${what} must be a number, got ${typeName(v)} ${JSON.stringify(toDisplayString(v)).slice(0, 40)}`,
    );
  return n;
};
const int = (v: Value, what: string) => Math.trunc(num(v, what));
const str = (v: Value, meter?: Meter) => toDisplayString(v, meter);
const list = (v: Value, what: string): Value[] => {
  if (Array.isArray(v)) return v;
  throw new FormulaError(`${what} must be a list, got ${typeName(v)}`);
};
const dict = (v: Value, what: string): Map<string, Value> => {
  if (v instanceof Map) return v;
  throw new FormulaError(`${what} must be a dict, got ${typeName(v)}`);
};
const opt = (args: Value[], i: number) => (args[i] === undefined ? null : args[i]);

/** How often a part (not empty) occurs in a text, without overlaps, as split() finds it. */
function occurrences(text: string, part: string, meter: Meter): number {
  meter.work(text.length / CHARS_PER_STEP);
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count++;
  meter.work(count);
  return count;
}

/** A list a built-in copied from another (so no larger than it, and one), within the list limit, charged for the copying. */
function copied(meter: Meter, l: Value[]): Value[] {
  meter.work(l.length);
  return checkList(l);
}

const isList = (v: Value): boolean => Array.isArray(v);
const isContainer = (v: Value): boolean => Array.isArray(v) || v instanceof Map;

/**
 * A list function's two arguments in its documented order, with the list at `at`, also when
 * written the other way round: the list's place holds neither a list nor None (an unset list,
 * which keeps its place and its error) while the other holds one. Two lists keep their order.
 */
function listAt(args: Value[], at: 0 | 1, list = isList): Value[] {
  return !list(args[at]) && args[at] !== null && list(args[1 - at]) ? [args[1], args[0]] : args;
}
const EITHER_ORDER = 'The arguments may come in either order when only one of them is a list.';

function toDate(v: Value, what: string): number {
  const d = parseDate(v);
  if (d === null) throw new FormulaError(`${what} must be a date dd.mm.yyyy, got "${str(v)}"`);
  return d;
}

function addMonths(date: number, months: number): string {
  const d = new Date(date);
  // (Not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.)
  const target = new Date(0);
  target.setUTCFullYear(d.getUTCFullYear(), d.getUTCMonth() + months, 1);
  const monthEnd = new Date(target);
  monthEnd.setUTCMonth(target.getUTCMonth() + 1, 0);
  target.setUTCDate(Math.min(d.getUTCDate(), monthEnd.getUTCDate()));
  return formatDate(target.getTime());
}

function strftime(parts: ReturnType<typeof zonedParts>, format: string): string {
  return format.replace(/%([dmYHMSy%])/g, (_, c: string) =>
    c === '%' ? '%' : c === 'y' ? parts.Y.slice(2) : String(parts[c as keyof typeof parts]),
  );
}

/** `dd.mm.yyyy[ hh:mm[:ss]]` (a real day, any year from 1) or ISO 8601, as an instant in UTC. */
function parseDateTime(text: string): Date | null {
  const at = parseDate(text) ?? parseDateAndTime(text);
  if (at !== null) return new Date(at);
  // A day or time that does not exist (31.02, 24:00) is refused, not left to Date.parse to guess.
  if (/^\s*\d{1,2}\.\d{1,2}\.\d{4}/.test(text)) return null;
  const iso = Date.parse(text);
  return Number.isNaN(iso) ? null : new Date(iso);
}

function base64Encode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function base64Decode(text: string): string {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, ''));
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    throw new FormulaError('base64decode: the text is not base64');
  }
}

group = 'Logic';
pure(
  'if',
  'condition: any, then: any, otherwise?: any',
  'any',
  'then when the condition holds, otherwise otherwise (None if left out); only the chosen branch is evaluated.',
  "if(total > 100, 'free delivery', 'delivery 5')",
  () => {
    throw new FormulaError('if() is evaluated by the interpreter');
  },
);

group = 'Math';
pure('abs', 'x: number', 'number', 'The absolute value.', 'abs(-5) → 5', ([x]) => Math.abs(num(x, 'abs: x')));
pure('ceil', 'x: number', 'number', 'Rounds up to a whole number.', 'ceil(4.2) → 5', ([x]) =>
  Math.ceil(num(x, 'ceil: x')),
);
pure('floor', 'x: number', 'number', 'Rounds down to a whole number.', 'floor(4.8) → 4', ([x]) =>
  Math.floor(num(x, 'floor: x')),
);
pure(
  'int',
  'x: any',
  'number',
  'The whole-number part of a number or numeric text.',
  "int('42.9') → 42",
  ([x]) => {
    const n = asNumber(x);
    if (n === null) throw new FormulaError(`int: "${str(x)}" is not a number`);
    return Math.trunc(n);
  },
);
pure('float', 'x: any', 'number', 'A number from numeric text.', "float('2.5') → 2.5", ([x]) =>
  num(x, 'float: x'),
);
pure('str', 'x: any', 'string', 'The value as text.', 'str(12) → "12"', ([x], ctx) => str(x, ctx));
pure(
  'round',
  'x: number, digits?: number = 0',
  'number',
  'Rounds to a number of decimal places.',
  'round(3.14159, 2) → 3.14',
  (args) => {
    const digits = args[1] === undefined || args[1] === null ? 0 : int(args[1], 'round: digits');
    const f = 10 ** digits;
    return Math.round(num(args[0], 'round: x') * f + Number.EPSILON) / f;
  },
);
pure(
  'min',
  'values: any, ...more: any',
  'number',
  'The smallest of the numbers (or of one list).',
  'min(3, 1, 2) → 1',
  (args, ctx) => pick(args, ctx, 'min', (a, b) => a < b),
);
pure(
  'max',
  'values: any, ...more: any',
  'number',
  'The largest of the numbers (or of one list).',
  'max([3, 1, 2]) → 3',
  (args, ctx) => pick(args, ctx, 'max', (a, b) => a > b),
);
pure('pow', 'x: number, y: number', 'number', 'x to the power y.', 'pow(2, 10) → 1024', ([x, y]) =>
  finite(num(x, 'pow: x') ** num(y, 'pow: y')),
);
pure('sqrt', 'x: number', 'number', 'The square root.', 'sqrt(16) → 4', ([x]) => {
  const n = num(x, 'sqrt: x');
  if (n < 0) throw new FormulaError('sqrt: x must not be negative');
  return Math.sqrt(n);
});
pure(
  'log',
  'x: number, base?: number',
  'number',
  'The natural logarithm, or the logarithm to a base.',
  'log(100, 10) → 2',
  (args) => {
    const x = num(args[0], 'log: x');
    if (x <= 0) throw new FormulaError('log: x must be positive');
    return args[1] === undefined || args[1] === null
      ? Math.log(x)
      : Math.log(x) / Math.log(num(args[1], 'log: base'));
  },
);
pure(
  'random',
  'from?: number, to?: number',
  'number',
  'A random whole number from..to (both included); a fraction 0..1 without arguments.',
  'random(1, 6) → 4',
  (args, ctx) => {
    if (args.length === 0) return ctx.random();
    const from = args.length === 1 ? 0 : int(args[0], 'random: from');
    const to = int(args.length === 1 ? args[0] : args[1], 'random: to');
    if (to < from) throw new FormulaError('random: to must not be less than from');
    return from + Math.floor(ctx.random() * (to - from + 1));
  },
);

function pick(
  args: Value[],
  ctx: BuiltinContext,
  name: string,
  better: (a: number, b: number) => boolean,
): Value {
  const values = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
  ctx.work(values.length);
  if (!values.length) throw new FormulaError(`${name}: give at least one number`);
  let best = num(values[0], `${name}: each value`);
  for (const v of values.slice(1)) {
    const n = num(v, `${name}: each value`);
    if (better(n, best)) best = n;
  }
  return best;
}

group = 'Text';
pure('len', 'value: any', 'number', 'The length of a text, list or dict.', "len('hello') → 5", ([v], ctx) => {
  if (Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  const text = str(v, ctx);
  ctx.work(text.length / CHARS_PER_STEP);
  return [...text].length;
});
pure('lower', 'text: string', 'string', 'The text in lower case.', "lower('Hi') → 'hi'", ([t]) =>
  str(t).toLowerCase(),
);
pure('upper', 'text: string', 'string', 'The text in upper case.', "upper('Hi') → 'HI'", ([t]) =>
  str(t).toUpperCase(),
);
pure(
  'strip',
  'text: string, chars?: string',
  'string',
  'Removes spaces (or the given characters) at both ends.',
  "strip('  hi ') → 'hi'",
  (args) => {
    const text = str(args[0]);
    const chars = opt(args, 1);
    if (chars === null) return text.trim();
    const set = new Set(str(chars));
    let a = 0;
    let b = text.length;
    while (a < b && set.has(text[a])) a++;
    while (b > a && set.has(text[b - 1])) b--;
    return text.slice(a, b);
  },
);
pure(
  'replace',
  'text: string, old: string, new: string',
  'string',
  'Replaces every occurrence of old with new.',
  "replace('a-b-c', '-', '+') → 'a+b+c'",
  ([t, o, n], ctx) => {
    const [text, old, by] = [str(t, ctx), str(o, ctx), str(n, ctx)];
    // The result's length is known before it is built: one too long is refused, not built.
    const times = old === '' ? Math.max(text.length - 1, 0) : occurrences(text, old, ctx);
    if (text.length + times * (by.length - old.length) > LIMITS.stringLength) throw textTooLong();
    return text.split(old).join(by);
  },
);
pure(
  'contains',
  'value: any, part: any',
  'boolean',
  `Whether a text contains a part, a list an item, or a dict a key. contains(item, list) works too.`,
  "contains('hello', 'ell') → True",
  (args, ctx) => {
    const [v, p] = listAt(args, 0, isContainer);
    return Array.isArray(v)
      ? v.some((x) => valuesEqual(x, p, ctx))
      : v instanceof Map
        ? v.has(str(p, ctx))
        : str(v, ctx).includes(str(p, ctx));
  },
);
pure(
  'startswith',
  'text: string, prefix: string',
  'boolean',
  'Whether the text starts with the prefix.',
  "startswith('+7900', '+7') → True",
  ([t, p]) => str(t).startsWith(str(p)),
);
pure(
  'endswith',
  'text: string, suffix: string',
  'boolean',
  'Whether the text ends with the suffix.',
  "endswith('photo.png', '.png') → True",
  ([t, s]) => str(t).endsWith(str(s)),
);
pure(
  'substring',
  'text: string, start: number, end?: number',
  'string',
  'The part of the text from start (counting from 0) up to end (not included).',
  "substring('hello', 1, 3) → 'el'",
  (args) => {
    const chars = [...str(args[0])];
    const start = int(args[1], 'substring: start');
    const end = opt(args, 2) === null ? chars.length : int(args[2], 'substring: end');
    return chars.slice(start, end).join('');
  },
);
pure(
  'split',
  'text: string, separator?: string',
  'list',
  'Splits the text into a list (at spaces when no separator is given).',
  "split('a,b', ',') → ['a', 'b']",
  (args, ctx) => {
    const text = str(args[0], ctx);
    const sep = opt(args, 1);
    if (sep === null) return checkList(text.trim().split(/\s+/).filter(Boolean));
    const separator = str(sep, ctx);
    // Counted before the list is built.
    const parts = separator === '' ? text.length : occurrences(text, separator, ctx) + 1;
    if (parts > LIMITS.listLength) throw listTooLong();
    return text.split(separator);
  },
);
pure(
  'repeat',
  'text: string, times: number',
  'string',
  'The text repeated a number of times (a fraction is cut to whole times); text * number is an error, not a repetition.',
  "repeat('ab', 3) → 'ababab'",
  ([t, n]) => {
    const text = str(t);
    const times = num(n, 'repeat: times');
    if (!(times >= 0 && times < Number.POSITIVE_INFINITY))
      throw new FormulaError(`repeat: times must be a finite number, 0 or more, got ${formatNumber(times)}`);
    const whole = text.length === 0 ? 0 : Math.trunc(times);
    // Checked before the text is built.
    if (text.length * whole > LIMITS.stringLength) throw textTooLong();
    return text.repeat(whole);
  },
);
pure(
  'concat',
  'values: any, ...more: any',
  'string',
  'Joins texts (None counts as empty).',
  "concat('a', 1, 'b') → 'a1b'",
  (args, ctx) => {
    const texts = args.map((v) => str(v, ctx));
    // Measured before it is joined.
    if (texts.reduce((sum, t) => sum + t.length, 0) > LIMITS.stringLength) throw textTooLong();
    return texts.join('');
  },
);
pure(
  'urlencode',
  'text: string',
  'string',
  'Encodes the text for a URL.',
  "urlencode('a b&c') → 'a%20b%26c'",
  ([t]) => encodeURIComponent(str(t)),
);
pure(
  'urldecode',
  'text: string',
  'string',
  'Decodes URL-encoded text.',
  "urldecode('a%20b') → 'a b'",
  ([t]) => {
    try {
      return decodeURIComponent(str(t).replace(/\+/g, ' '));
    } catch {
      throw new FormulaError('urldecode: the text is not URL-encoded');
    }
  },
);
pure(
  'base64',
  'text: string',
  'string',
  'Encodes the text (UTF-8) in base64.',
  "base64('hi') → 'aGk='",
  ([t]) => base64Encode(str(t)),
);
pure(
  'base64decode',
  'text: string',
  'string',
  'Decodes base64 to text.',
  "base64decode('aGk=') → 'hi'",
  ([t]) => base64Decode(str(t)),
);
pure(
  'md5',
  'text: string',
  'string',
  'The MD5 hash of the text, hex.',
  "md5('a') → '0cc175b9c0f1b6a831c399e269772661'",
  ([t]) => md5(str(t)),
);
pure(
  'sha256',
  'text: string',
  'string',
  'The SHA-256 hash of the text, hex.',
  "sha256('a') → 'ca978112…'",
  ([t]) => sha256(str(t)),
);
pure(
  'hmac_hexdigest',
  "key: string, message: string, algorithm?: string = 'sha256'",
  'string',
  'The HMAC of the message with the key (sha256 or md5), hex.',
  "hmac_hexdigest('key', 'msg')",
  (args) => {
    const algorithm = opt(args, 2) === null ? 'sha256' : str(args[2]).toLowerCase();
    if (algorithm !== 'sha256' && algorithm !== 'md5')
      throw new FormulaError("hmac_hexdigest: algorithm is 'sha256' or 'md5'");
    return hmacHex(str(args[0]), str(args[1]), algorithm);
  },
);
pure(
  'normalizePhone',
  'phone: string',
  'string',
  'The digits of a phone number; a leading 8 of an 11-digit number becomes 7.',
  "normalizePhone('8 (900) 123-45-67') → '79001234567'",
  ([p]) => {
    const digits = str(p).replace(/\D/g, '');
    return digits.length === 11 && digits.startsWith('8') ? `7${digits.slice(1)}` : digits;
  },
);

group = 'Dates';
pure(
  'addDays',
  'date: string, days: number',
  'string',
  'The date (dd.mm.yyyy) plus a number of days.',
  "addDays('28.02.2024', 2) → '01.03.2024'",
  ([d, n]) => formatDate(toDate(d, 'addDays: date') + int(n, 'addDays: days') * 86_400_000),
);
pure(
  'addMinutes',
  'time: string, minutes: number',
  'string',
  "A time hh:mm or a date-time 'dd.mm.yyyy hh:mm' plus minutes.",
  "addMinutes('23:50', 20) → '00:10'",
  ([t, n]) => {
    const minutes = int(n, 'addMinutes: minutes');
    const time = parseTime(t);
    if (time !== null) return formatTime(time + minutes);
    const dt = parseDateTime(str(t));
    if (!dt) throw new FormulaError(`addMinutes: "${str(t)}" is not hh:mm or dd.mm.yyyy hh:mm`);
    const r = new Date(checkDateRange(dt.getTime() + minutes * 60_000));
    return strftime(zonedParts(r, 'UTC'), '%d.%m.%Y %H:%M');
  },
);
pure(
  'addMonth',
  'date: string, months: number',
  'string',
  'The date plus a number of months (the day is kept where the month allows).',
  "addMonth('31.01.2024', 1) → '29.02.2024'",
  ([d, n]) => addMonths(toDate(d, 'addMonth: date'), int(n, 'addMonth: months')),
);
pure(
  'addYear',
  'date: string, years: number',
  'string',
  'The date plus a number of years.',
  "addYear('29.02.2024', 1) → '28.02.2025'",
  ([d, n]) => addMonths(toDate(d, 'addYear: date'), 12 * int(n, 'addYear: years')),
);
pure(
  'get_datetime',
  "format?: string = '%d.%m.%Y %H:%M', time_zone?: string",
  'string',
  "The current date and time in the project's time zone (or another), in a format of %d %m %Y %y %H %M %S.",
  "get_datetime('%H:%M') → '14:05'",
  (args, ctx) => {
    const format = opt(args, 0) === null ? '%d.%m.%Y %H:%M' : str(args[0]);
    const zone = opt(args, 1) === null ? ctx.timeZone : str(args[1]);
    try {
      return strftime(zonedParts(ctx.now(), zone), format);
    } catch {
      throw new FormulaError(`get_datetime: "${zone}" is not a time zone`);
    }
  },
);
pure(
  'convert_datetime',
  'value: string, format: string, time_zone?: string',
  'string',
  'Reformats a date-time (dd.mm.yyyy hh:mm or ISO 8601), optionally into a time zone.',
  "convert_datetime('2024-05-01T10:00:00Z', '%d.%m.%Y %H:%M', 'Europe/Berlin') → '01.05.2024 12:00'",
  (args) => {
    const dt = parseDateTime(str(args[0]));
    if (!dt) throw new FormulaError(`convert_datetime: "${str(args[0])}" is not a date-time`);
    const zone = opt(args, 2) === null ? 'UTC' : str(args[2]);
    try {
      return strftime(zonedParts(dt, zone), str(args[1]));
    } catch {
      throw new FormulaError(`convert_datetime: "${zone}" is not a time zone`);
    }
  },
);

group = 'Lists and dicts';
pure(
  'append',
  'list: list, item: any',
  'list',
  `A new list with the item added at the end (assign it: a = append(a, x)). ${EITHER_ORDER}`,
  'append([1, 2], 3) → [1, 2, 3]',
  (args, ctx) => {
    const [l, x] = listAt(args, 0);
    return copied(ctx, [...list(l, 'append: list'), x]);
  },
);
pure(
  'insert',
  'list: list, index: number, item: any',
  'list',
  'A new list with the item inserted at the index.',
  "insert(['a', 'c'], 1, 'b') → ['a', 'b', 'c']",
  ([l, i, x], ctx) => {
    const copy = [...list(l, 'insert: list')];
    copy.splice(int(i, 'insert: index'), 0, x);
    return copied(ctx, copy);
  },
);
pure(
  'remove',
  'list: list, item: any',
  'list',
  `A new list without the first occurrence of the item. ${EITHER_ORDER}`,
  'remove([1, 2, 1], 1) → [2, 1]',
  (args, ctx) => {
    const [l, x] = listAt(args, 0);
    const copy = copied(ctx, [...list(l, 'remove: list')]);
    const at = copy.findIndex((y) => valuesEqual(y, x, ctx));
    if (at >= 0) copy.splice(at, 1);
    return copy;
  },
);
pure(
  'index',
  'list: list, item: any',
  'number',
  `The position of the item (from 0), or -1. ${EITHER_ORDER}`,
  "index(['a', 'b'], 'b') → 1",
  (args, ctx) => {
    const [l, x] = listAt(args, 0);
    return list(l, 'index: list').findIndex((y) => valuesEqual(y, x, ctx));
  },
);
pure(
  'in_array',
  'item: any, list: list',
  'boolean',
  `Whether the list contains the item. ${EITHER_ORDER}`,
  "in_array('b', ['a', 'b']) → True",
  (args, ctx) => {
    const [x, l] = listAt(args, 1);
    return list(l, 'in_array: list').some((y) => valuesEqual(y, x, ctx));
  },
);
pure(
  'arr_len',
  'list: list',
  'number',
  'The number of items.',
  'arr_len([1, 2]) → 2',
  ([l]) => list(l, 'arr_len: list').length,
);
pure(
  'sort',
  'list: list, reverse?: boolean = False',
  'list',
  'A sorted copy (numbers by value, texts alphabetically).',
  'sort([3, 1, 2]) → [1, 2, 3]',
  (args, ctx) => {
    const copy = [...list(args[0], 'sort: list')];
    // About n log n comparisons.
    ctx.work(copy.length * Math.ceil(Math.log2(copy.length + 1)));
    copy.sort((a, b) => compareValues(a, b) ?? typeName(a).localeCompare(typeName(b)));
    return args[1] === true || asNumber(args[1] ?? null) === 1 ? copy.reverse() : copy;
  },
);
pure(
  'sum_array',
  'list: list',
  'number',
  'The sum of the numbers.',
  'sum_array([1, 2, 3]) → 6',
  ([l], ctx) => {
    const items = list(l, 'sum_array: list');
    ctx.work(items.length);
    return items.reduce<number>((s, x) => s + num(x, 'sum_array: each item'), 0);
  },
);
pure(
  'dict_keys_to_array',
  'dict: dict',
  'list',
  'The keys of the dict.',
  "dict_keys_to_array({'a': 1}) → ['a']",
  ([d], ctx) => copied(ctx, [...dict(d, 'dict_keys_to_array: dict').keys()]),
);
pure(
  'dict_values_to_array',
  'dict: dict',
  'list',
  'The values of the dict.',
  "dict_values_to_array({'a': 1}) → [1]",
  ([d], ctx) => copied(ctx, [...dict(d, 'dict_values_to_array: dict').values()]),
);
pure(
  'exist_key',
  'dict: dict, key: any',
  'boolean',
  'Whether the dict has the key.',
  "exist_key({'a': 1}, 'a') → True",
  ([d, k]) => dict(d, 'exist_key: dict').has(str(k)),
);

group = 'JSON';
pure(
  'from_json',
  'text: string',
  'any',
  'Reads JSON text into lists and dicts.',
  `from_json('{"a": [1, 2]}')['a'][1] → 2`,
  ([t], ctx) => {
    const text = str(t, ctx);
    ctx.work(text.length / CHARS_PER_STEP);
    // What the text holds: a list item or dict entry takes more than the few characters it is written in.
    ctx.alloc(4 * text.length);
    try {
      return fromJson(JSON.parse(text));
    } catch {
      throw new FormulaError('from_json: the text is not valid JSON');
    }
  },
);
pure(
  'to_json',
  'value: any',
  'string',
  'Writes a value as JSON text.',
  "to_json({'a': 1}) → '{\"a\":1}'",
  ([v], ctx) => JSON.stringify(toJson(v, ctx)) ?? 'null',
);

group = 'Bot and messages';
const botAndMessages = [
  inFlow(
    'callback',
    'client_id: number, callback_message: string',
    'boolean',
    'Sends a system message to another client; the bot treats it as a command (not shown to the client).',
    "callback(1234, 'payment_ok')",
  ),
  inFlow(
    'message',
    'client_id: number, text: string, message_id?: number, timeout?: any',
    'boolean',
    'Sends a text to a client; with an empty text and message_id the block runs and the client moves into it. timeout: seconds (≤3600) or dd.mm.yyyy hh:mm.',
    "message(client_id, 'Hello!', None, 60)",
  ),
  inFlow(
    'platform_message',
    'platform_id: string, text: string, client_type?: number, message_id?: number, timeout?: any, group_id?: string',
    'boolean',
    'Like message(), for a client found by their messenger id.',
    "platform_message('123456789', 'Hi', 1)",
  ),
  inFlow(
    'chatapp_message',
    'phone: string, text: string, message_id?: number',
    'boolean',
    'Sends through the connected chat-app bot to a phone number.',
    "chatapp_message('79001234567', 'Your order is ready')",
  ),
  inFlow(
    'check_social_subscription',
    'user_name: string, login?: string',
    'any',
    'Whether the person with this Instagram username follows the connected account login (by default the client’s own, else the only one): True or False, None when they never wrote to it (Instagram cannot say).',
    "check_social_subscription('ann.smith', 'our_shop')",
  ),
  inFlow(
    'get_client_id_by_platform_id',
    'client_type: number, platform_id: string, group?: string',
    'number',
    'The client_id of a messenger user, or None. group is needed when several bots of that messenger are connected.',
    "get_client_id_by_platform_id(1, '123456789')",
  ),
  inFlow(
    'get_block_name_by_id',
    'block_id: number',
    'string',
    'The name of a block.',
    'get_block_name_by_id(12)',
  ),
  inFlow(
    'get_client_var',
    'client_id: number, name: string',
    'any',
    'A profile variable of a client (client.<name>).',
    "get_client_var(1234, 'email')",
  ),
  inFlow(
    'set_client_var',
    'client_id: number, name: string, value: any',
    'boolean',
    'Sets a profile variable of a client.',
    "set_client_var(1234, 'vip', True)",
  ),
] as const;

group = 'HTTP requests';
const answerDoc =
  "answer_type 'status' gives the status code, 'json' the JSON body, 'text' the raw text, anything else {'status', 'data'}.";
const httpRequests = [
  inFlow(
    'requests_get',
    'url: string, answer_type?: string, headers?: dict, params?: dict, auth?: any, proxy?: string',
    'any',
    `GET request. ${answerDoc}`,
    "requests_get('https://api.example.com/items', 'json')",
  ),
  inFlow(
    'requests_post',
    'url: string, answer_type?: string, headers?: dict, data?: any, json_data?: any, auth?: any, proxy?: string',
    'any',
    `POST request: data for form or raw bodies, json_data for JSON; only one of them. auth: [user, password]; pass 0 to skip it. proxy: 'de'.`,
    "requests_post(url, 'json', None, None, {'id': 1})",
  ),
  inFlow(
    'requests_put',
    'url: string, answer_type?: string, headers?: dict, data?: any, auth?: any, proxy?: string, data_is_json?: string',
    'any',
    "PUT request; data_is_json '1' sends data as JSON.",
    "requests_put(url, 'status', None, {'a': 1}, 0, None, '1')",
  ),
  inFlow(
    'requests_patch',
    'url: string, answer_type?: string, headers?: dict, data?: any, auth?: any, proxy?: string',
    'any',
    'PATCH request.',
    "requests_patch(url, 'json', None, {'a': 1})",
  ),
  inFlow(
    'requests_delete',
    'url: string, answer_type?: string, headers?: dict, data?: any, json_data?: any, auth?: any, proxy?: string',
    'any',
    'DELETE request; only one of data and json_data.',
    "requests_delete(url, 'status')",
  ),
] as const;

group = 'CRM and lists';
const crmAndLists = [
  inFlow(
    'create_order',
    '',
    'number',
    "Closes the client's current deal (without a submission) and starts a new one; returns its order_id.",
    'order = create_order()',
  ),
  inFlow(
    'change_state',
    'state_id: number',
    'boolean',
    "Moves the client's deal to a CRM state.",
    'change_state(3)',
  ),
  inFlow(
    'get_state_id',
    'name: string',
    'number',
    'The id of a CRM state by its name, or None.',
    "get_state_id('Won')",
  ),
  inFlow('add_to_list', 'list_id: number', 'boolean', 'Adds the client to a list.', 'add_to_list(7)'),
  inFlow(
    'remove_from_list',
    'list_id: number',
    'boolean',
    'Removes the client from a list.',
    'remove_from_list(7)',
  ),
  inFlow('inlist', 'list_id: number', 'boolean', 'Whether the client is in a list.', 'inlist(7)'),
  inFlow('list_size', 'list_id: number', 'number', 'The number of clients in a list.', 'list_size(7)'),
  inFlow(
    'assign_to_user',
    'email?: string',
    'string',
    'Assigns the client to an employee (round-robin without an e-mail); returns the e-mail.',
    "assign_to_user('agent@example.com')",
  ),
  inFlow(
    'ask_operator',
    '',
    'boolean',
    "Hands the conversation to the operators: it waits for one in the inbox, and the bot is paused for the client (for the project's pause timeout) from this line on.",
    'ask_operator()',
  ),
] as const;

group = 'tg messenger';
const tgMessenger = [
  inFlow(
    'tg_callback',
    'platform_id: string, callback_message: string, group_id?: string, business?: number',
    'boolean',
    'Like callback() for a tg messenger user; pass None to skip group_id, 1 as the fourth for business clients.',
    "tg_callback('123456789', 'paid')",
  ),
  inFlow(
    'tg_callback_url_open',
    'callback_query_id: string, url: string',
    'boolean',
    'Answers a callback button by opening a link to the bot with a start parameter. A press takes one answer: in a bot that calls this, presses are answered after their flow, and a press this answered gets no other.',
    "tg_callback_url_open(callback_query_id, 'https://t.me/shop_bot?start=promo')",
  ),
  inFlow(
    'tg_set_bot_description',
    'description: string, language_code?: string',
    'boolean',
    'Sets the description shown when the chat is empty; an empty text removes it.',
    "tg_set_bot_description('We sell pizza', 'en')",
  ),
  inFlow(
    'tg_set_bot_short_description',
    'description: string, language_code?: string',
    'boolean',
    'Sets the short description (profile and shared links); an empty text removes it.',
    "tg_set_bot_short_description('Pizza in 30 minutes')",
  ),
  inFlow(
    'tg_get_bot_description',
    'language_code?: string',
    'string',
    'The description for a language.',
    "tg_get_bot_description('en')",
  ),
  inFlow(
    'tg_get_bot_short_description',
    'language_code?: string',
    'string',
    'The short description for a language.',
    'tg_get_bot_short_description()',
  ),
  inFlow(
    'tg_set_command',
    "commands: any, language?: string, scope?: string = 'default', platform_id?: string, user_id?: string",
    'boolean',
    'Sets bot commands: a list of [command, description] pairs (at most 100).',
    "tg_set_command([['start', 'Start over'], ['help', 'Help']])",
  ),
  inFlow(
    'tg_get_command',
    "language?: string, scope?: string = 'default', platform_id?: string, user_id?: string",
    'dict',
    "The commands: {'ok': True, 'result': [{'command', 'description'}]}.",
    "tg_get_command('', 'all_private_chats')",
  ),
  inFlow(
    'tg_delete_command',
    "language?: string, scope?: string = 'default', platform_id?: string, user_id?: string",
    'boolean',
    'Deletes the commands of a language and scope.',
    'tg_delete_command()',
  ),
] as const;

/** The names of the in-flow functions; the server's handlers are type-checked against them. */
export type InFlowName = (
  | typeof botAndMessages
  | typeof httpRequests
  | typeof crmAndLists
  | typeof tgMessenger
)[number];

/** Every built-in function: the interpreter, the editor and the docs all read this one list. */
export const catalogue: readonly BuiltinEntry[] = entries;
export const builtins: ReadonlyMap<string, BuiltinEntry> = new Map(entries.map((e) => [e.name, e]));

export function signature(entry: BuiltinEntry): string {
  const ps = entry.params.map(
    (p) => `${p.rest ? '...' : ''}${p.name}${p.required ? '' : '?'}${p.default ? ` = ${p.default}` : ''}`,
  );
  return `${entry.name}(${ps.join(', ')}) → ${entry.returns}`;
}

/** Whether a project on `plan` may call the built-in: in-flow functions need the business or AI plan. */
export const planAllows = (entry: BuiltinEntry, plan: Plan): boolean =>
  entry.plan === 'free' || plan !== 'free';

/** What the run, the formula editor and lint say of a call the project's plan does not allow. */
export function planMessage(name: string, plan: Plan): string {
  return `${name}() needs the business or AI plan; this project is on the ${plan} plan (change it in Settings, Plan)`;
}

export const arity = (entry: BuiltinEntry) => ({
  min: entry.params.filter((p) => p.required).length,
  max: entry.params.some((p) => p.rest) ? Number.POSITIVE_INFINITY : entry.params.length,
});

/** `len() takes 1 argument, got 2`. */
export function arityMessage(name: string, min: number, max: number, got: number): string {
  const expected =
    min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
  return `${name}() takes ${expected} argument${expected === '1' ? '' : 's'}, got ${got}`;
}

export { formatNumber };
