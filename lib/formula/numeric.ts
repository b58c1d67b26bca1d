import { type NameSlot, type Run, readNumber } from './run-state';
import type { Value } from './values';

/**
 * Arithmetic and comparisons of numbers, with no values in between: a numeric part's closure
 * gives its number, or NaN where the general path must decide (an operand that is no number
 * or numeric text, a result that is not finite, x / 0). The general path then evaluates the
 * part again from the start, and says why. Numeric parts read only names and constants, which
 * give the same again and charge nothing, so the first attempt leaves no trace; and it stops at
 * its first NaN, so it reads no name the general path would not have reached.
 */
export type Num = (run: Run) => number;

/** A numeric operand: a name or a constant read in place (most are one or the other), else a part. */
export interface NumOperand {
  slot: NameSlot | null;
  constant: boolean;
  value: number;
  get: Num;
}

const never: Num = () => Number.NaN;

export const numConstant = (value: number): NumOperand => ({ slot: null, constant: true, value, get: never });
export const numName = (slot: NameSlot): NumOperand => ({ slot, constant: false, value: 0, get: never });
export const numPart = (get: Num): NumOperand => ({ slot: null, constant: false, value: 0, get });

/** `+ - * /` of two numeric operands; null for other operators. */
export function numericArithmetic(op: string, lo: NumOperand, ro: NumOperand): Num | null {
  const { slot: ls, constant: lc, value: lv, get: left } = lo;
  const { slot: rs, constant: rc, value: rv, get: right } = ro;
  // `v - v === 0`: v is finite. A literal per operator, so that V8 compiles each one's arithmetic
  // inline (as binaryNode); where both operands are names or constants, one that calls no
  // closure, which V8 inlines into the part above (it inlines no literal into itself).
  if ((ls !== null || lc) && (rs !== null || rc))
    switch (op) {
      case '+':
        return (run) => {
          const x = ls !== null ? readNumber(run, ls, false) : lv;
          if (Number.isNaN(x)) return x;
          const v = x + (rs !== null ? readNumber(run, rs, false) : rv);
          return v - v === 0 ? v : Number.NaN;
        };
      case '-':
        return (run) => {
          const x = ls !== null ? readNumber(run, ls, false) : lv;
          if (Number.isNaN(x)) return x;
          const v = x - (rs !== null ? readNumber(run, rs, false) : rv);
          return v - v === 0 ? v : Number.NaN;
        };
      case '*':
        return (run) => {
          const x = ls !== null ? readNumber(run, ls, false) : lv;
          if (Number.isNaN(x)) return x;
          const v = x * (rs !== null ? readNumber(run, rs, false) : rv);
          return v - v === 0 ? v : Number.NaN;
        };
      case '/':
        return (run) => {
          const x = ls !== null ? readNumber(run, ls, false) : lv;
          if (Number.isNaN(x)) return x;
          const v = x / (rs !== null ? readNumber(run, rs, false) : rv);
          return v - v === 0 ? v : Number.NaN;
        };
    }
  switch (op) {
    case '+':
      return (run) => {
        const x = ls !== null ? readNumber(run, ls, false) : lc ? lv : left(run);
        if (Number.isNaN(x)) return x;
        const v = x + (rs !== null ? readNumber(run, rs, false) : rc ? rv : right(run));
        return v - v === 0 ? v : Number.NaN;
      };
    case '-':
      return (run) => {
        const x = ls !== null ? readNumber(run, ls, false) : lc ? lv : left(run);
        if (Number.isNaN(x)) return x;
        const v = x - (rs !== null ? readNumber(run, rs, false) : rc ? rv : right(run));
        return v - v === 0 ? v : Number.NaN;
      };
    case '*':
      return (run) => {
        const x = ls !== null ? readNumber(run, ls, false) : lc ? lv : left(run);
        if (Number.isNaN(x)) return x;
        const v = x * (rs !== null ? readNumber(run, rs, false) : rc ? rv : right(run));
        return v - v === 0 ? v : Number.NaN;
      };
    case '/':
      return (run) => {
        const x = ls !== null ? readNumber(run, ls, false) : lc ? lv : left(run);
        if (Number.isNaN(x)) return x;
        const v = x / (rs !== null ? readNumber(run, rs, false) : rc ? rv : right(run));
        return v - v === 0 ? v : Number.NaN;
      };
  }
  return null;
}

/** Negation of a numeric operand. */
export function numericNegation(o: NumOperand): Num {
  const { slot, constant, value, get } = o;
  return (run) => -(slot !== null ? readNumber(run, slot, false) : constant ? value : get(run));
}

type General = (run: Run) => Value;

/** A comparison of two numeric operands, names compared exactly (see asExactNumber); null for other operators. */
export function numericComparison(
  op: string,
  lo: NumOperand,
  ro: NumOperand,
  general: General,
): General | null {
  const { slot: ls, constant: lc, value: lv, get: left } = lo;
  const { slot: rs, constant: rc, value: rv, get: right } = ro;
  // As compareValues: by the difference, so infinities compare as there.
  switch (op) {
    case '<':
      return (run) => {
        const x = ls !== null ? readNumber(run, ls, true) : lc ? lv : left(run);
        const y = Number.isNaN(x) ? x : rs !== null ? readNumber(run, rs, true) : rc ? rv : right(run);
        return !Number.isNaN(y) ? x - y < 0 : general(run);
      };
    case '>':
      return (run) => {
        const x = ls !== null ? readNumber(run, ls, true) : lc ? lv : left(run);
        const y = Number.isNaN(x) ? x : rs !== null ? readNumber(run, rs, true) : rc ? rv : right(run);
        return !Number.isNaN(y) ? x - y > 0 : general(run);
      };
    case '<=':
      return (run) => {
        const x = ls !== null ? readNumber(run, ls, true) : lc ? lv : left(run);
        const y = Number.isNaN(x) ? x : rs !== null ? readNumber(run, rs, true) : rc ? rv : right(run);
        return !Number.isNaN(y) ? x - y <= 0 : general(run);
      };
    case '>=':
      return (run) => {
        const x = ls !== null ? readNumber(run, ls, true) : lc ? lv : left(run);
        const y = Number.isNaN(x) ? x : rs !== null ? readNumber(run, rs, true) : rc ? rv : right(run);
        return !Number.isNaN(y) ? x - y >= 0 : general(run);
      };
    case '==':
      return (run) => {
        const x = ls !== null ? readNumber(run, ls, true) : lc ? lv : left(run);
        const y = Number.isNaN(x) ? x : rs !== null ? readNumber(run, rs, true) : rc ? rv : right(run);
        return !Number.isNaN(y) ? x === y : general(run);
      };
    case '!=':
      return (run) => {
        const x = ls !== null ? readNumber(run, ls, true) : lc ? lv : left(run);
        const y = Number.isNaN(x) ? x : rs !== null ? readNumber(run, rs, true) : rc ? rv : right(run);
        return !Number.isNaN(y) ? x !== y : general(run);
      };
  }
  return null;
}

/** Whether a comparison holds, by the difference of its operands (neither infinite: see numericIf). */
const holds = (op: string, d: number) =>
  op === '>'
    ? d > 0
    : op === '<'
      ? d < 0
      : op === '>='
        ? d >= 0
        : op === '<='
          ? d <= 0
          : op === '=='
            ? d === 0
            : d !== 0;

/** A comparison of numeric operands, for numericIf. */
export interface Comparison {
  op: string;
  left: NumOperand;
  right: NumOperand;
}

/**
 * `if` of a numeric condition (a comparison, compared in place, or a number, which holds unless
 * 0, as isTruthy) and two branches that give numbers (constants and numeric parts, not names: a
 * name's text stays text).
 */
export function numericIf(cond: NumOperand | Comparison, then: NumOperand, otherwise: NumOperand): Num {
  const { constant: tc, value: tv, get: yes } = then;
  const { constant: oc, value: ov, get: no } = otherwise;
  if ('op' in cond) {
    const op = cond.op;
    const { slot: ls, constant: lc, value: lv, get: left } = cond.left;
    const { slot: rs, constant: rc, value: rv, get: right } = cond.right;
    // For finite numbers, x - y is 0 just where x === y; an infinity (Infinity - Infinity is
    // NaN) is left to the general path.
    return (run) => {
      const x = ls !== null ? readNumber(run, ls, true) : lc ? lv : left(run);
      if (Number.isNaN(x)) return x;
      const d = x - (rs !== null ? readNumber(run, rs, true) : rc ? rv : right(run));
      if (Number.isNaN(d)) return d;
      return holds(op, d) ? (tc ? tv : yes(run)) : oc ? ov : no(run);
    };
  }
  const { slot: cs, constant: cc, value: cv, get: test } = cond;
  return (run) => {
    const t = cs !== null ? readNumber(run, cs, false) : cc ? cv : test(run);
    if (Number.isNaN(t)) return t;
    return t !== 0 ? (tc ? tv : yes(run)) : oc ? ov : no(run);
  };
}

/** Math built-ins of numeric operands, as their entries in the catalogue compute them; else null. */
export function numericCall(name: string, args: NumOperand[]): Num | null {
  const [{ slot: xs, constant: xc, value: xv, get: x }, digits] = args;
  switch (name) {
    case 'abs':
      return (run) => Math.abs(xs !== null ? readNumber(run, xs, false) : xc ? xv : x(run));
    // The square root of a negative number is NaN: the general path says why.
    case 'sqrt':
      return (run) => Math.sqrt(xs !== null ? readNumber(run, xs, false) : xc ? xv : x(run));
    case 'floor':
      return (run) => Math.floor(xs !== null ? readNumber(run, xs, false) : xc ? xv : x(run));
    case 'ceil':
      return (run) => Math.ceil(xs !== null ? readNumber(run, xs, false) : xc ? xv : x(run));
    case 'round': {
      if (!digits)
        return (run) =>
          Math.round((xs !== null ? readNumber(run, xs, false) : xc ? xv : x(run)) + Number.EPSILON);
      const { slot: ds, constant: dc, value: dv, get: d } = digits;
      const factor = 10 ** Math.trunc(dv);
      return (run) => {
        const n = xs !== null ? readNumber(run, xs, false) : xc ? xv : x(run);
        const f = dc ? factor : 10 ** Math.trunc(ds !== null ? readNumber(run, ds, false) : d(run));
        const v = Math.round(n * f + Number.EPSILON) / f;
        return v - v === 0 ? v : Number.NaN;
      };
    }
  }
  return null;
}

/** A number read in place from a value (a list's or dict's item), no charge: anything else NaN. */
export function numberIn(get: (run: Run) => Value | undefined): Num {
  return (run) => {
    const v = get(run);
    return typeof v === 'number' ? v : Number.NaN;
  };
}

/** len() of a list or dict read in place, no charge; a text (charged by its length) NaN. */
export function lengthOf(get: (run: Run) => Value | undefined): Num {
  return (run) => {
    const v = get(run);
    return Array.isArray(v) ? v.length : v instanceof Map ? v.size : Number.NaN;
  };
}
