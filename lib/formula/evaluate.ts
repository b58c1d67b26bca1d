import { LIMITS } from './limits';
import { bytesOf, CHARS_PER_STEP, type Meter } from './meter';
import {
  asNumber,
  compareValues,
  FormulaError,
  finite,
  formatDate,
  formatTime,
  isTruthy,
  parseDate,
  parseTime,
  toDisplayString,
  typeName,
  type Value,
  valuesEqual,
} from './values';

/**
 * Operators on the language's values (bot-semantics §4). Never touches host objects. The meter,
 * when given, is charged for work that grows with the values and for the values built.
 */

export const textTooLong = () => new FormulaError(`a text longer than ${LIMITS.stringLength} characters`);
export const listTooLong = () => new FormulaError(`a list longer than ${LIMITS.listLength} items`);

export const checkList = <T extends Value[]>(l: T): T => {
  if (l.length > LIMITS.listLength) throw listTooLong();
  return l;
};

/** A text or list an operator built, charged to the meter: its items were copied, its bytes are new. */
function built<T extends Value>(meter: Meter | undefined, v: T): T {
  if (meter) {
    const bytes = bytesOf(v);
    meter.work(typeof v === 'string' ? bytes / (2 * CHARS_PER_STEP) : bytes / 8);
    meter.alloc(bytes);
  }
  return v;
}

const cannot = (op: string, a: Value, b: Value) =>
  new FormulaError(`cannot use ${op} with ${typeName(a)} and ${typeName(b)}`);

export function add(a: Value, b: Value, meter?: Meter): Value {
  if (a === null || b === null) {
    // An unset variable: 0 beside a number (or another unset one), the empty text beside text.
    const other = a === null ? b : a;
    if (other === null) return 0;
    if (typeof other === 'string') return asNumber(other) ?? other;
    if (typeof other === 'number') return other;
  }
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== null && nb !== null && typeof a !== 'boolean' && typeof b !== 'boolean') return finite(na + nb);
  const date = parseDate(a);
  if (date !== null && nb !== null) return formatDate(date + Math.trunc(nb) * 86_400_000);
  const time = parseTime(a);
  if (time !== null && nb !== null) return formatTime(time + Math.trunc(nb));
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length + b.length > LIMITS.listLength) throw listTooLong();
    return built(meter, [...a, ...b]);
  }
  if (typeof a === 'string' || typeof b === 'string') {
    const x = toDisplayString(a, meter);
    const y = toDisplayString(b, meter);
    if (x.length + y.length > LIMITS.stringLength) throw textTooLong();
    return built(meter, x + y);
  }
  throw cannot('+', a, b);
}

export function subtract(a: Value, b: Value): Value {
  const da = parseDate(a);
  const db = parseDate(b);
  if (da !== null && db !== null) return Math.round((da - db) / 86_400_000);
  const ta = parseTime(a);
  const tb = parseTime(b);
  if (ta !== null && tb !== null) return ta - tb;
  const nb = asNumber(b);
  if (da !== null && nb !== null) return formatDate(da - Math.trunc(nb) * 86_400_000);
  if (ta !== null && nb !== null) return formatTime(ta - Math.trunc(nb));
  return arithmetic('-', a, b);
}

/** Text times a number is no repetition (a client's answer is text): say what to use instead. */
function notANumber(a: Value, b: Value): FormulaError {
  const text = typeof a === 'string' && asNumber(a) === null ? a : (b as string);
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return new FormulaError(
    `cannot use * with the text ${JSON.stringify(shown)}, which is not a number; to repeat a text, use repeat(text, times)`,
  );
}

export function arithmetic(op: string, a: Value, b: Value, meter?: Meter): Value {
  if (op === '*' && Array.isArray(a)) {
    const n = asNumber(b);
    if (n === null) throw cannot('*', a, b);
    if (!(n >= 0 && n < Number.POSITIVE_INFINITY)) {
      throw new FormulaError(
        `cannot repeat a list ${toDisplayString(n)} times: the count must be a finite number, 0 or more`,
      );
    }
    // (An empty list repeated any number of times is empty, however large the count.)
    const times = a.length === 0 ? 0 : Math.trunc(n);
    if (a.length * times > LIMITS.listLength) throw listTooLong();
    return built(meter, Array.from({ length: times }, () => a).flat());
  }
  // An unset variable is 0 in arithmetic.
  const x = a === null ? 0 : asNumber(a);
  const y = b === null ? 0 : asNumber(b);
  if (x === null || y === null) {
    const text = (v: Value, n: number | null) => typeof v === 'string' && n === null;
    throw op === '*' && (text(a, x) || text(b, y)) ? notANumber(a, b) : cannot(op, a, b);
  }
  switch (op) {
    case '-':
      return finite(x - y);
    case '*':
      return finite(x * y);
    case '/':
      if (y === 0) throw new FormulaError('division by zero');
      return finite(x / y);
    case '%':
      if (y === 0) throw new FormulaError('division by zero');
      return finite(((x % y) + y) % y);
    case '**':
      return finite(x ** y);
  }
  throw new FormulaError(`unknown operator ${op}`);
}

/** Different types are never equal and never ordered; comparing them is not an error. */
export function compare(op: string, a: Value, b: Value, meter?: Meter): boolean {
  if (op === '==') return valuesEqual(a, b, meter);
  if (op === '!=') return !valuesEqual(a, b, meter);
  const c = compareValues(a, b);
  if (c === null) return false;
  switch (op) {
    case '<':
      return c < 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    default:
      return c >= 0;
  }
}

export function binary(op: string, a: Value, b: Value, meter?: Meter): Value {
  switch (op) {
    case '+':
      return add(a, b, meter);
    case '-':
      return subtract(a, b);
    case '==':
    case '!=':
    case '<':
    case '>':
    case '<=':
    case '>=':
      return compare(op, a, b, meter);
    default:
      return arithmetic(op, a, b, meter);
  }
}

export function unary(op: string, v: Value): Value {
  if (op === 'not') return !isTruthy(v);
  // An unset variable is 0 in arithmetic.
  if (v === null) return 0;
  const n = asNumber(v);
  if (n === null) throw new FormulaError(`cannot use ${op} with ${typeName(v)}`);
  return op === '-' ? -n : n;
}

function position(index: Value, length: number): number {
  const n = asNumber(index);
  if (n === null || !Number.isInteger(n))
    throw new FormulaError(`an index must be a whole number, got ${toDisplayString(index)}`);
  const i = n < 0 ? length + n : n;
  if (i < 0 || i >= length) throw new FormulaError(`index ${n} is out of range (${length} items)`);
  return i;
}

export function getIndex(target: Value, index: Value, meter?: Meter): Value {
  if (Array.isArray(target)) return target[position(index, target.length)];
  if (target instanceof Map) {
    const key = toDisplayString(index, meter);
    if (!target.has(key)) throw new FormulaError(`the dict has no key '${key}'`);
    return target.get(key) as Value;
  }
  if (typeof target === 'string') {
    // Characters, not UTF-16 units: the text is read through.
    meter?.work(target.length / CHARS_PER_STEP);
    const chars = [...target];
    return chars[position(index, chars.length)];
  }
  throw new FormulaError(`${typeName(target)} cannot be indexed`);
}

export function setIndex(target: Value, index: Value, value: Value, meter?: Meter): void {
  if (Array.isArray(target)) {
    target[position(index, target.length)] = value;
    return;
  }
  if (target instanceof Map) {
    target.set(toDisplayString(index, meter), value);
    if (target.size > LIMITS.listLength)
      throw new FormulaError(`a dict larger than ${LIMITS.listLength} items`);
    return;
  }
  throw new FormulaError(`${typeName(target)} cannot be changed by index; only lists and dicts can`);
}
