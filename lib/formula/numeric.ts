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
