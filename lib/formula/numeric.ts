import { readExact as exactOf, type NameSlot, readNumber as numberOf, type Run } from './run-state';
import { formatNumber, type Value } from './values';

// Names of this module's own: where a transpiler exports functions through getters (as under
// tsx), each call of an imported one goes through its getter, bytecode that counts against
// what V8 inlines into one function.
const readNumber = numberOf;
const readExact = exactOf;

/**
 * Arithmetic and comparisons of numbers, with no values in between: a numeric part's closure
 * gives its number, or where the general path must decide (an operand that is no number or
 * numeric text, a result that is not finite, x / 0), what its `fail` gives: NaN for a part
 * inside another numeric part, and for the part at the top (the root) the general path's
 * value, which evaluates the part again from the start and says why. The root is the numeric
 * closure itself, with no closure around it to call it. Numeric parts read only names and
 * constants, which give the same again and charge nothing, so the first attempt leaves no
 * trace; and it stops at its first failure, so it reads no name the general path would not
 * have reached.
 */
export type Num = (run: Run) => number;

/** What a numeric part gives where it fails: NaN inside another part, the general path's value at the root. */
export type Fail<T> = (run: Run) => T;

/** A numeric part, built with its fail: as a part (NaN) or as the root (the general path). */
export type NumBuilder = <T>(fail: Fail<T>) => (run: Run) => number | T;

/** The fail of a part inside another. */
export const nan: Fail<number> = () => Number.NaN;

/** A numeric part that cannot take a fail (it gives NaN), as a builder: at the root, NaN goes the general way. */
export const builderOf =
  (num: Num): NumBuilder =>
  <T>(fail: Fail<T>) =>
    fail === (nan as Fail<unknown>)
      ? num
      : (run: Run) => {
          const v = num(run);
          return Number.isNaN(v) ? fail(run) : v;
        };

/** A numeric operand: a name or a constant read in place (most are one or the other), else a part. */
export interface NumOperand {
  slot: NameSlot | null;
  constant: boolean;
  value: number;
  get: Num;
}

const never: Num = () => Number.NaN;

/** A numeric operand as a closure giving its number. */
function numberGetter(o: NumOperand): Num {
  const { slot, constant, value, get } = o;
  if (slot !== null) return (run) => readNumber(run, slot);
  return constant ? () => value : get;
}

export const numConstant = (value: number): NumOperand => ({ slot: null, constant: true, value, get: never });
export const numName = (slot: NameSlot): NumOperand => ({ slot, constant: false, value: 0, get: never });
export const numPart = (get: Num): NumOperand => ({ slot: null, constant: false, value: 0, get });

/** `+ - * /` of two numeric operands; null for other operators. */
export function numericArithmetic(op: string, lo: NumOperand, ro: NumOperand): NumBuilder | null {
  const { slot: ls, constant: lc, value: lv } = lo;
  const { slot: rs, constant: rc, value: rv } = ro;
  // `v - v === 0`: v is finite (NaN, from an operand that is no number, fails too). A literal
  // per operator, so that V8 compiles each one's arithmetic inline (as binaryNode); where both
  // operands are names or constants, one that calls no closure, which V8 inlines into the part
  // above (it inlines no literal into itself). Such a leaf reads both names at once, as the
  // general path would; small, as V8 inlines only so much bytecode into one function.
  if ((ls !== null || lc) && (rs !== null || rc))
    switch (op) {
      case '+':
        return (fail) => (run) => {
          const v = (ls !== null ? readNumber(run, ls) : lv) + (rs !== null ? readNumber(run, rs) : rv);
          return v - v === 0 ? v : fail(run);
        };
      case '-':
        return (fail) => (run) => {
          const v = (ls !== null ? readNumber(run, ls) : lv) - (rs !== null ? readNumber(run, rs) : rv);
          return v - v === 0 ? v : fail(run);
        };
      case '*':
        return (fail) => (run) => {
          const v = (ls !== null ? readNumber(run, ls) : lv) * (rs !== null ? readNumber(run, rs) : rv);
          return v - v === 0 ? v : fail(run);
        };
      case '/':
        return (fail) => (run) => {
          const v = (ls !== null ? readNumber(run, ls) : lv) / (rs !== null ? readNumber(run, rs) : rv);
          return v - v === 0 ? v : fail(run);
        };
    }
  // Otherwise a part is called anyway, so both operands are: a literal this small leaves V8
  // room to inline the parts into it. A part that failed (NaN) stops here, before the right
  // operand is read.
  const left = numberGetter(lo);
  const right = numberGetter(ro);
  switch (op) {
    case '+':
      return (fail) => (run) => {
        const x = left(run);
        if (Number.isNaN(x)) return fail(run);
        const v = x + right(run);
        return v - v === 0 ? v : fail(run);
      };
    case '-':
      return (fail) => (run) => {
        const x = left(run);
        if (Number.isNaN(x)) return fail(run);
        const v = x - right(run);
        return v - v === 0 ? v : fail(run);
      };
    case '*':
      return (fail) => (run) => {
        const x = left(run);
        if (Number.isNaN(x)) return fail(run);
        const v = x * right(run);
        return v - v === 0 ? v : fail(run);
      };
    case '/':
      return (fail) => (run) => {
        const x = left(run);
        if (Number.isNaN(x)) return fail(run);
        const v = x / right(run);
        return v - v === 0 ? v : fail(run);
      };
  }
  return null;
}

/** Negation of a numeric operand. */
export function numericNegation(o: NumOperand): NumBuilder {
  const { slot, constant, value, get } = o;
  return (fail) => (run) => {
    const v = -(slot !== null ? readNumber(run, slot) : constant ? value : get(run));
    return Number.isNaN(v) ? fail(run) : v;
  };
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
        const x = ls !== null ? readExact(run, ls) : lc ? lv : left(run);
        const y = Number.isNaN(x) ? x : rs !== null ? readExact(run, rs) : rc ? rv : right(run);
        return !Number.isNaN(y) ? x - y < 0 : general(run);
      };
    case '>':
      return (run) => {
        const x = ls !== null ? readExact(run, ls) : lc ? lv : left(run);
        const y = Number.isNaN(x) ? x : rs !== null ? readExact(run, rs) : rc ? rv : right(run);
        return !Number.isNaN(y) ? x - y > 0 : general(run);
      };
    case '<=':
      return (run) => {
        const x = ls !== null ? readExact(run, ls) : lc ? lv : left(run);
        const y = Number.isNaN(x) ? x : rs !== null ? readExact(run, rs) : rc ? rv : right(run);
        return !Number.isNaN(y) ? x - y <= 0 : general(run);
      };
    case '>=':
      return (run) => {
        const x = ls !== null ? readExact(run, ls) : lc ? lv : left(run);
        const y = Number.isNaN(x) ? x : rs !== null ? readExact(run, rs) : rc ? rv : right(run);
        return !Number.isNaN(y) ? x - y >= 0 : general(run);
      };
    case '==':
      return (run) => {
        const x = ls !== null ? readExact(run, ls) : lc ? lv : left(run);
        const y = Number.isNaN(x) ? x : rs !== null ? readExact(run, rs) : rc ? rv : right(run);
        return !Number.isNaN(y) ? x === y : general(run);
      };
    case '!=':
      return (run) => {
        const x = ls !== null ? readExact(run, ls) : lc ? lv : left(run);
        const y = Number.isNaN(x) ? x : rs !== null ? readExact(run, rs) : rc ? rv : right(run);
        return !Number.isNaN(y) ? x !== y : general(run);
      };
  }
  return null;
}

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
export function numericIf(
  cond: NumOperand | Comparison,
  then: NumOperand,
  otherwise: NumOperand,
): NumBuilder {
  const { constant: tc, value: tv, get: yes } = then;
  const { constant: oc, value: ov, get: no } = otherwise;
  if ('op' in cond) {
    const op = cond.op;
    const { slot: ls, constant: lc, value: lv, get: left } = cond.left;
    const { slot: rs, constant: rc, value: rv, get: right } = cond.right;
    // Whether the comparison holds where x - y is above 0, below it, or 0: three booleans, so
    // that no operator is looked at when it runs. For finite numbers, x - y is 0 just where
    // x === y; an infinity (Infinity - Infinity is NaN) is left to the general path.
    const above = op === '>' || op === '>=' || op === '!=';
    const below = op === '<' || op === '<=' || op === '!=';
    const zero = op === '==' || op === '<=' || op === '>=';
    // Written numbers in both branches (the commonest `if`) get a literal of their own, so
    // that an `if` in a branch of another is not the same function (V8 inlines no function
    // into itself).
    if (tc && oc)
      return (fail) => (run) => {
        const x = ls !== null ? readExact(run, ls) : lc ? lv : left(run);
        if (Number.isNaN(x)) return fail(run);
        const d = x - (rs !== null ? readExact(run, rs) : rc ? rv : right(run));
        if (Number.isNaN(d)) return fail(run);
        return (d > 0 ? above : d < 0 ? below : zero) ? tv : ov;
      };
    return (fail) => (run) => {
      const x = ls !== null ? readExact(run, ls) : lc ? lv : left(run);
      if (Number.isNaN(x)) return fail(run);
      const d = x - (rs !== null ? readExact(run, rs) : rc ? rv : right(run));
      if (Number.isNaN(d)) return fail(run);
      const v = (d > 0 ? above : d < 0 ? below : zero) ? (tc ? tv : yes(run)) : oc ? ov : no(run);
      return Number.isNaN(v) ? fail(run) : v;
    };
  }
  const { slot: cs, constant: cc, value: cv, get: test } = cond;
  return (fail) => (run) => {
    const t = cs !== null ? readNumber(run, cs) : cc ? cv : test(run);
    if (Number.isNaN(t)) return fail(run);
    const v = t !== 0 ? (tc ? tv : yes(run)) : oc ? ov : no(run);
    return Number.isNaN(v) ? fail(run) : v;
  };
}

/** Math built-ins of numeric operands, as their entries in the catalogue compute them; else null. */
export function numericCall(name: string, args: NumOperand[]): NumBuilder | null {
  const [{ slot: xs, constant: xc, value: xv, get: x }, digits] = args;
  switch (name) {
    case 'abs':
      return (fail) => (run) => {
        const v = Math.abs(xs !== null ? readNumber(run, xs) : xc ? xv : x(run));
        return Number.isNaN(v) ? fail(run) : v;
      };
    // The square root of a negative number is NaN: the general path says why.
    case 'sqrt':
      return (fail) => (run) => {
        const v = Math.sqrt(xs !== null ? readNumber(run, xs) : xc ? xv : x(run));
        return Number.isNaN(v) ? fail(run) : v;
      };
    case 'floor':
      return (fail) => (run) => {
        const v = Math.floor(xs !== null ? readNumber(run, xs) : xc ? xv : x(run));
        return Number.isNaN(v) ? fail(run) : v;
      };
    case 'ceil':
      return (fail) => (run) => {
        const v = Math.ceil(xs !== null ? readNumber(run, xs) : xc ? xv : x(run));
        return Number.isNaN(v) ? fail(run) : v;
      };
    case 'round': {
      if (!digits)
        return (fail) => (run) => {
          const v = Math.round((xs !== null ? readNumber(run, xs) : xc ? xv : x(run)) + Number.EPSILON);
          return Number.isNaN(v) ? fail(run) : v;
        };
      const { slot: ds, constant: dc, value: dv, get: d } = digits;
      const factor = 10 ** Math.trunc(dv);
      return (fail) => (run) => {
        const n = xs !== null ? readNumber(run, xs) : xc ? xv : x(run);
        const f = dc ? factor : 10 ** Math.trunc(ds !== null ? readNumber(run, ds) : d(run));
        const v = Math.round(n * f + Number.EPSILON) / f;
        return v - v === 0 ? v : fail(run);
      };
    }
  }
  return null;
}

/**
 * str() of a number made here: its text, as str() gives it, charged as the built-in's result
 * is; where the number is NaN, what the general path says.
 */
export function numericText(o: NumOperand, general: General): General {
  const { constant, value, get } = o;
  return (run) => {
    const n = constant ? value : get(run);
    if (Number.isNaN(n)) return general(run);
    const text = formatNumber(n);
    run.alloc(2 * text.length);
    return text;
  };
}
