import { arity, arityMessage, builtins, planAllows, planMessage } from './catalogue';
import { binary, checkList, getIndex, setIndex, textTooLong, unary } from './evaluate';
import { NeedsHost } from './host-calls';
import { LIMITS } from './limits';
import { bytesOf } from './meter';
import {
  builderOf,
  type Comparison,
  type Num,
  type NumBuilder,
  type NumOperand,
  nan,
  numConstant,
  numericArithmetic,
  numericCall,
  numericComparison,
  numericIf,
  numericNegation,
  numericText,
  numName,
  numPart,
} from './numeric';
import { children, type Expr, type Pos, type Statement } from './parser';
import { type NameSlot, type NameTable, type Run, readName, tick, writeName } from './run-state';
import {
  asExactNumber,
  asNumber,
  checkTextSize,
  FormulaError,
  isTruthy,
  mayBeNumeric,
  parseDate,
  parseTime,
  toDisplayString,
  type Value,
} from './values';

/** Formula parts compiled to closures: evaluation is calling them, with no tree walking. */
export type Compiled = (run: Run) => Value;

/** What a formula or expression is compiled with: its names, and whether steps are counted. */
export interface Unit {
  names: NameTable;
  /** Counted units tick every step (see CLOCK_EVERY); the others cannot near a limit. */
  counted: boolean;
}

export interface CompiledStatement {
  pos: Pos;
  /** The variable the statement writes, for error messages and the error-into-variable rule. */
  target?: NameSlot;
  /** Statements with in-flow calls run through executeWithHost; the others straight through. */
  callsHost: boolean;
  exec: (run: Run) => void;
}

export function at(pos: Pos, error: unknown): FormulaError {
  if (error instanceof NeedsHost) throw error;
  if (error instanceof FormulaError) {
    if (!error.line) {
      error.line = pos.line;
      error.column = pos.column;
    }
    return error;
  }
  if (error instanceof RangeError)
    return new FormulaError('the formula is too deeply nested or too large', pos.line, pos.column);
  return new FormulaError(String((error as Error)?.message ?? error), pos.line, pos.column);
}

/** How many nodes formula parts have (a bound on their steps) and whether they call in-flow functions. */
export function measure(parts: Expr[]): { nodes: number; callsHost: boolean } {
  let nodes = 0;
  let callsHost = false;
  const visit = (x: Expr) => {
    nodes++;
    if (x.type === 'call' && builtins.get(x.name)?.host) callsHost = true;
    for (const child of children(x)) visit(child);
  };
  for (const part of parts) visit(part);
  return { nodes, callsHost };
}

/** The names an expression mentions once. */
export function namedOnce(e: Expr): Set<string> {
  const seen = new Set<string>();
  const again = new Set<string>();
  const visit = (x: Expr) => {
    if (x.type === 'name') (seen.has(x.name) ? again : seen).add(x.name);
    for (const child of children(x)) visit(child);
  };
  visit(e);
  return new Set([...seen].filter((name) => !again.has(name)));
}

export const statementParts = (s: Statement): Expr[] =>
  s.type === 'expr' ? [s.expr] : s.value ? [s.target, s.value] : [s.target];

export function compileExpr(e: Expr, unit: Unit): Compiled {
  const node = compileNode(e, unit);
  if (!unit.counted || e.type === 'number' || e.type === 'string' || e.type === 'bool' || e.type === 'none')
    return node;
  return (run) => {
    tick(run);
    return node(run);
  };
}

const none: Compiled = () => null;

function compileNode(e: Expr, unit: Unit): Compiled {
  switch (e.type) {
    case 'number':
    case 'string':
    case 'bool': {
      const value = e.value;
      return () => value;
    }
    case 'none':
      return none;
    case 'name': {
      const slot = unit.names.slot(e.name);
      return (run) => readName(run, slot);
    }
    case 'list': {
      const items = e.items.map((x) => compileExpr(x, unit));
      return (run) => {
        const list = checkList(items.map((f) => f(run)));
        run.alloc(bytesOf(list));
        return list;
      };
    }
    case 'dict': {
      const entries = e.entries.map(([k, v]) => [compileExpr(k, unit), compileExpr(v, unit)] as const);
      return (run) => {
        const map = new Map<string, Value>();
        for (const [k, v] of entries) map.set(toDisplayString(k(run), run), v(run));
        run.alloc(bytesOf(map));
        return map;
      };
    }
    case 'unary': {
      const arg = compileExpr(e.arg, unit);
      const op = e.op;
      const general = (v: Value) => {
        try {
          return unary(op, v);
        } catch (error) {
          throw at(e, error);
        }
      };
      if (op !== '-') return (run) => general(arg(run));
      const n = unit.counted ? null : numOperand(e.arg, operand(e.arg, unit), unit);
      if (n) return numericRoot(numericNegation(n), (run) => general(arg(run)));
      return (run) => {
        const v = arg(run);
        return typeof v === 'number' ? -v : general(v);
      };
    }
    case 'logical': {
      const left = compileExpr(e.left, unit);
      const right = compileExpr(e.right, unit);
      return e.op === 'and'
        ? (run) => {
            const l = left(run);
            return isTruthy(l) ? right(run) : l;
          }
        : (run) => {
            const l = left(run);
            return isTruthy(l) ? l : right(run);
          };
    }
    case 'binary': {
      if (!unit.counted && e.op === '+' && e.left.type === 'binary' && givesPlainText(e.left))
        return joinChain(e, unit);
      const lo = operand(e.left, unit);
      const ro = operand(e.right, unit);
      const general = binaryNode(e, lo, ro);
      const nl = unit.counted ? null : numOperand(e.left, lo, unit);
      const nr = nl && numOperand(e.right, ro, unit);
      if (!nl || !nr) return general;
      const num = numericArithmetic(e.op, nl, nr);
      if (num) return numericRoot(num, general);
      const comparison = numericComparison(e.op, nl, nr, general);
      if (!comparison) return general;
      comparisons.set(comparison, { op: e.op, left: nl, right: nr });
      return comparison;
    }
    case 'index': {
      const chain = unit.counted ? [] : constantChain(e);
      if (chain.length >= 2) return chainNode(chain, unit);
      const { slot: ts, get: target } = operand(e.target, unit);
      const { constant: ic, value: iv, get: index } = operand(e.index, unit);
      const general = (run: Run, t: Value, i: Value) => {
        try {
          return getIndex(t, i, run);
        } catch (error) {
          throw at(e, error);
        }
      };
      // A written key or position (most are) is checked once, here: `d['key']`, `l[0]`.
      if (ic && typeof iv === 'string')
        return (run) => {
          const t = ts !== null ? readName(run, ts) : target(run);
          const v = t instanceof Map ? t.get(iv) : undefined;
          return v !== undefined ? v : general(run, t, iv);
        };
      if (ic && typeof iv === 'number' && Number.isInteger(iv) && iv >= 0)
        return (run) => {
          const t = ts !== null ? readName(run, ts) : target(run);
          return Array.isArray(t) && iv < t.length ? t[iv] : general(run, t, iv);
        };
      return (run) => {
        const t = ts !== null ? readName(run, ts) : target(run);
        const i = ic ? iv : index(run);
        // The common cases first: a dict's present key, a list's position from the start.
        if (t instanceof Map) {
          const v = typeof i === 'string' ? t.get(i) : undefined;
          if (v !== undefined) return v;
        } else if (Array.isArray(t) && typeof i === 'number' && i >= 0 && i < t.length && Number.isInteger(i))
          return t[i];
        return general(run, t, i);
      };
    }
    case 'call':
      return callNode(e, unit);
  }
}

type IndexExpr = Extract<Expr, { type: 'index' }>;

/** Whether an index is written as a key or a position from the start (most are): `d['key']`, `l[0]`. */
const constantKey = (e: Expr) =>
  e.type === 'string' || (e.type === 'number' && Number.isInteger(e.value) && e.value >= 0);

/** The indexes by written keys or positions an expression ends with, innermost first: `order['items'][0]`. */
function constantChain(e: Expr): IndexExpr[] {
  const chain: IndexExpr[] = [];
  for (let x = e; x.type === 'index' && constantKey(x.index); x = x.target) chain.unshift(x);
  return chain;
}

/** A written key's or position's item, read in place: a dict's present key, a list's position in range; else undefined. */
const reach = (t: Value, key: string | number): Value | undefined =>
  typeof key === 'string'
    ? t instanceof Map
      ? t.get(key)
      : undefined
    : Array.isArray(t) && key < t.length
      ? t[key]
      : undefined;

const keysOf = (chain: IndexExpr[]) => chain.map((x) => (x.index as { value: string | number }).value);

/**
 * A value read in place, as a number: itself if it is a number, or with `length`, the length of
 * a list or dict (len(), no charge; a text is charged by its length, so the general path
 * decides); anything else NaN, as is an index that would go the general way.
 */
const numberOf = (v: Value | undefined, length: boolean): number =>
  length
    ? Array.isArray(v)
      ? v.length
      : v instanceof Map
        ? v.size
        : Number.NaN
    : typeof v === 'number'
      ? v
      : Number.NaN;

/**
 * A name, or a name's chain of written keys and positions, read in place as a number (see
 * numberOf), charging nothing: one closure, the read and the number together. Null for other
 * expressions.
 */
function inPlace(e: Expr, unit: Unit, length: boolean): Num | null {
  if (unit.counted) return null;
  const chain = constantChain(e);
  const base = chain.length ? chain[0].target : e;
  if (base.type !== 'name') return null;
  const slot = unit.names.slot(base.name);
  if (!chain.length) return (run) => numberOf(readName(run, slot), length);
  const keys = keysOf(chain);
  const walk = (t: Value | undefined) => {
    for (let i = 0; i < keys.length && t !== undefined; i++) t = reach(t, keys[i]);
    return t;
  };
  if (!unit.names.keepContainers) return (run) => numberOf(walk(readName(run, slot)), length);
  // Lists and dicts kept between runs change no more (see NameTable), so the same one read
  // again holds the same item: the walk's number is remembered with it.
  let walked: Value = null;
  let item = Number.NaN;
  return (run) => {
    const t = readName(run, slot);
    if (t === walked && t !== null) return item;
    item = numberOf(walk(t), length);
    walked = typeof t === 'object' ? t : null;
    return item;
  };
}

/**
 * A chain of written keys and positions as one closure (one call, not one per index), each
 * index as its own node would take it: a dict's present key or a list's position in range in
 * place, anything else the general way, which says why with that index's position.
 */
function chainNode(chain: IndexExpr[], unit: Unit): Compiled {
  const { slot, get } = operand(chain[0].target, unit);
  const keys = keysOf(chain);
  const generals = chain.map((x) => (run: Run, t: Value, key: Value) => {
    try {
      return getIndex(t, key, run);
    } catch (error) {
      throw at(x, error);
    }
  });
  return (run) => {
    let t = slot !== null ? readName(run, slot) : get(run);
    for (let i = 0; i < keys.length; i++) {
      const v = reach(t, keys[i]);
      t = v !== undefined ? v : generals[i](run, t, keys[i]);
    }
    return t;
  };
}

/**
 * The number a value stands for in arithmetic (a number or numeric text, never a boolean), or
 * null. Remembers its last short text, as the same variable comes by again and again. For
 * comparing, a text whose number is not exact (an 18-digit id) is null: compare() decides.
 */
class NumberOf {
  private text: string | undefined;
  private number: number | null = null;

  constructor(private readonly convert: (v: Value) => number | null = asNumber) {}

  of(v: Value): number | null {
    if (typeof v === 'number') return v;
    if (typeof v !== 'string') return null;
    if (v === this.text) return this.number;
    if (v.length > 40) return this.convert(v);
    this.text = v;
    this.number = this.convert(v);
    return this.number;
  }
}

const COMPARISONS = new Set(['==', '!=', '<', '>', '<=', '>=']);

const finiteOr = (n: number): number | undefined => (Number.isFinite(n) ? n : undefined);

/**
 * What the operators but `+`, `*`, `-` and `/` (see binaryNode) give for two numbers (numeric
 * text included), exactly as `binary` would; undefined where `binary` has more to say (errors),
 * which then decides. One function for these operators, so each of their nodes calls the same one.
 */
function onNumbers(op: string, x: number, y: number): Value | undefined {
  switch (op) {
    // A result that is not finite, or no result, goes the general way, which says why.
    case '%':
      return y === 0 ? undefined : finiteOr(((x % y) + y) % y);
    case '**':
      return finiteOr(x ** y);
    case '==':
      return x === y;
    case '!=':
      return x !== y;
    // As compareValues: by the difference, so infinities compare as there.
    case '<':
      return x - y < 0;
    case '>':
      return x - y > 0;
    case '<=':
      return x - y <= 0;
    case '>=':
      return x - y >= 0;
  }
  return undefined;
}

/**
 * An operator's operand: a constant or a name is read in place, saving a call (most operands
 * are one or the other); anything else through its closure. Names of counted units keep their
 * closure, which counts the step.
 */
interface Operand {
  slot: NameSlot | null;
  constant: boolean;
  value: Value;
  get: Compiled;
}

function operand(e: Expr, unit: Unit): Operand {
  const get = compileExpr(e, unit);
  const slot = e.type === 'name' && !unit.counted ? unit.names.slot(e.name) : null;
  if (e.type === 'number' || e.type === 'string' || e.type === 'bool')
    return { slot, constant: true, value: e.value, get };
  return { slot, constant: e.type === 'none', value: null, get };
}

/** Numeric parts (see numeric.ts), by their closures: built again as parts of others. */
const numbers = new WeakMap<Compiled, NumBuilder>();
/** Comparisons of numeric operands, by their closures. */
const comparisons = new WeakMap<Compiled, Comparison>();

/** A numeric part as a value: its number, or where that fails, what the general path says. */
function numericRoot(build: NumBuilder, general: Compiled): Compiled {
  const root: Compiled = build(general);
  numbers.set(root, build);
  return root;
}

/**
 * An operand as a numeric one: a number, a name, a numeric part, or a number in a name's chain
 * of written keys and positions (`order['items'][0]['price']`); else null.
 */
function numOperand(e: Expr, o: Operand, unit: Unit): NumOperand | null {
  if (e.type === 'number') return numConstant(e.value);
  if (o.slot !== null) return numName(o.slot);
  const build = numbers.get(o.get);
  if (build) return numPart(build(nan));
  const item = e.type === 'index' ? inPlace(e, unit, false) : null;
  return item ? numPart(item) : null;
}

/** A condition as a numeric one: a comparison of numeric operands, or a numeric operand (true unless 0). */
function condOperand(e: Expr, o: Operand, unit: Unit): NumOperand | Comparison | null {
  return comparisons.get(o.get) ?? numOperand(e, o, unit);
}

/** A branch that gives a number: a written number or a numeric part (a name's text stays text). */
function branchOperand(e: Expr, o: Operand): NumOperand | null {
  if (e.type === 'number') return numConstant(e.value);
  const build = numbers.get(o.get);
  return build ? numPart(build(nan)) : null;
}

/**
 * Whether an expression gives only text starting where no number, date or time can (or fails):
 * then adding anything to it joins, and the text need not be looked at when it runs (looking
 * at a joined text makes V8 flatten it, which costs more than the join). `'Dear ' + name + ...`
 */
function givesPlainText(e: Expr): boolean {
  if (e.type === 'string') return !mayBeNumeric(e.value);
  return e.type === 'binary' && e.op === '+' && givesPlainText(e.left);
}

/**
 * Whether two values join here: both texts, the join fitting, its bytes counted. One that does
 * not fit goes the general way, which says why.
 */
function joins(run: Run, a: Value, b: Value): a is string {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const length = a.length + b.length;
  if (length > LIMITS.stringLength) return false;
  run.bytes += 2 * length;
  return run.bytes <= LIMITS.memoryBytes;
}

/**
 * A chain of joins onto plain text, `'Dear ' + name + ', your ' + qty`, as one closure that
 * adds each part in turn (not one closure per `+`), each `+` as its own node would: a join that
 * fits here, anything else the general way, with that `+`'s position.
 */
function joinChain(e: Extract<Expr, { type: 'binary' }>, unit: Unit): Compiled {
  const joinsOf: Extract<Expr, { type: 'binary' }>[] = [];
  let x: Expr = e;
  for (; x.type === 'binary' && x.op === '+' && givesPlainText(x.left); x = x.left) joinsOf.unshift(x);
  const first = (x as { value: string }).value;
  const parts = joinsOf.map((j) => operand(j.right, unit));
  const slots = parts.map((o) => o.slot);
  const constant = parts.map((o) => o.constant);
  const values = parts.map((o) => o.value);
  const gets = parts.map((o) => o.get);
  const generals = joinsOf.map((j) => (run: Run, a: Value, b: Value) => {
    try {
      return binary('+', a, b, run);
    } catch (error) {
      throw at(j, error);
    }
  });
  const n = joinsOf.length;
  return (run) => {
    let a: Value = first;
    for (let i = 0; i < n; i++) {
      const slot = slots[i];
      const b = slot !== null ? readName(run, slot) : constant[i] ? values[i] : gets[i](run);
      a = joins(run, a, b) ? a + b : generals[i](run, a, b);
    }
    return a;
  };
}

function binaryNode(e: Extract<Expr, { type: 'binary' }>, lo: Operand, ro: Operand): Compiled {
  // Operands as plain constants of the closure: reading them through a helper is slower.
  const { slot: ls, constant: lc, value: lv, get: left } = lo;
  const { slot: rs, constant: rc, value: rv, get: right } = ro;
  const op = e.op;
  const convert = COMPARISONS.has(op) ? asExactNumber : asNumber;
  const l = new NumberOf(convert);
  const r = new NumberOf(convert);
  const general = (run: Run, a: Value, b: Value) => {
    try {
      return binary(op, a, b, run);
    } catch (error) {
      throw at(e, error);
    }
  };
  if (op === '+') {
    if (givesPlainText(e.left))
      return (run) => {
        const a = ls !== null ? readName(run, ls) : lc ? lv : left(run);
        const b = rs !== null ? readName(run, rs) : rc ? rv : right(run);
        return joins(run, a, b) ? a + b : general(run, a, b);
      };
    return (run) => {
      const a = ls !== null ? readName(run, ls) : lc ? lv : left(run);
      const b = rs !== null ? readName(run, rs) : rc ? rv : right(run);
      const y = r.of(b);
      if (y === null) {
        // Anything text plus non-numeric text joins.
        if (joins(run, a, b)) return a + b;
      } else {
        const x = l.of(a);
        if (x !== null) return Number.isFinite(x + y) ? x + y : general(run, a, b);
        // Text plus numeric text joins, unless it is a date or time (plus days or minutes).
        if (joins(run, a, b) && parseDate(a) === null && parseTime(a) === null) return a + b;
      }
      return general(run, a, b);
    };
  }
  // The commonest operators get closures of their own, function literals apart, so that V8
  // compiles their arithmetic inline; where both operands are names or constants, one that
  // calls no closure, small enough for V8 to inline into the node above it. (The likeness of
  // these literals is the point: one literal shared by many operators is slower.) A result
  // that is not finite (x / 0 included) goes the general way, which says why.
  const leaves = (ls !== null || lc) && (rs !== null || rc);
  switch (op) {
    case '*':
      if (leaves)
        return (run) => {
          const a = ls !== null ? readName(run, ls) : lv;
          const b = rs !== null ? readName(run, rs) : rv;
          const x = l.of(a);
          const y = r.of(b);
          return x !== null && y !== null && Number.isFinite(x * y) ? x * y : general(run, a, b);
        };
      return (run) => {
        const a = ls !== null ? readName(run, ls) : lc ? lv : left(run);
        const b = rs !== null ? readName(run, rs) : rc ? rv : right(run);
        const x = l.of(a);
        const y = r.of(b);
        return x !== null && y !== null && Number.isFinite(x * y) ? x * y : general(run, a, b);
      };
    case '-':
      if (leaves)
        return (run) => {
          const a = ls !== null ? readName(run, ls) : lv;
          const b = rs !== null ? readName(run, rs) : rv;
          const x = l.of(a);
          const y = r.of(b);
          return x !== null && y !== null && Number.isFinite(x - y) ? x - y : general(run, a, b);
        };
      return (run) => {
        const a = ls !== null ? readName(run, ls) : lc ? lv : left(run);
        const b = rs !== null ? readName(run, rs) : rc ? rv : right(run);
        const x = l.of(a);
        const y = r.of(b);
        return x !== null && y !== null && Number.isFinite(x - y) ? x - y : general(run, a, b);
      };
    case '/':
      if (leaves)
        return (run) => {
          const a = ls !== null ? readName(run, ls) : lv;
          const b = rs !== null ? readName(run, rs) : rv;
          const x = l.of(a);
          const y = r.of(b);
          return x !== null && y !== null && Number.isFinite(x / y) ? x / y : general(run, a, b);
        };
      return (run) => {
        const a = ls !== null ? readName(run, ls) : lc ? lv : left(run);
        const b = rs !== null ? readName(run, rs) : rc ? rv : right(run);
        const x = l.of(a);
        const y = r.of(b);
        return x !== null && y !== null && Number.isFinite(x / y) ? x / y : general(run, a, b);
      };
  }
  return (run) => {
    const a = ls !== null ? readName(run, ls) : lc ? lv : left(run);
    const b = rs !== null ? readName(run, rs) : rc ? rv : right(run);
    const x = l.of(a);
    const y = r.of(b);
    if (x !== null && y !== null) {
      const v = onNumbers(op, x, y);
      if (v !== undefined) return v;
    }
    return general(run, a, b);
  };
}

function callNode(e: Extract<Expr, { type: 'call' }>, unit: Unit): Compiled {
  const ops = e.args.map((x) => operand(x, unit));
  const args = ops.map((o) => o.get);
  if (e.name === 'if') {
    // Lazy: only the branch it picks is evaluated.
    const [cond, then = none, otherwise = none] = args;
    if (!cond)
      return () => {
        throw new FormulaError('if() needs a condition', e.line, e.column);
      };
    const general: Compiled = (run) => {
      const c = cond(run);
      return c === true || (c !== false && isTruthy(c)) ? then(run) : otherwise(run);
    };
    if (unit.counted || args.length !== 3) return general;
    const nc = condOperand(e.args[0], ops[0], unit);
    const nt = nc && branchOperand(e.args[1], ops[1]);
    const no = nt && branchOperand(e.args[2], ops[2]);
    return no ? numericRoot(numericIf(nc, nt, no), general) : general;
  }
  const entry = builtins.get(e.name);
  if (!entry)
    return () => {
      throw new FormulaError(`unknown function ${e.name}()`, e.line, e.column);
    };
  const collect = collector(args);
  const { min, max } = arity(entry);
  if (args.length < min || args.length > max) {
    const message = arityMessage(e.name, min, max, args.length);
    return (run) => {
      collect(run);
      throw new FormulaError(message, e.line, e.column);
    };
  }
  if (entry.host)
    return (run) => {
      const values = collect(run);
      if (!planAllows(entry, run.options.plan))
        throw new FormulaError(planMessage(e.name, run.options.plan), e.line, e.column, e.name);
      if (run.hostIndex < run.hostResults.length) return run.hostResults[run.hostIndex++];
      // What the server will write out as text or JSON: measured first, like any value given out.
      try {
        for (const v of values) checkTextSize(v, run);
      } catch (error) {
        throw at(e, error);
      }
      throw new NeedsHost(e.name, values);
    };
  const impl = entry.impl!;
  const general: Compiled = (run) => {
    const values = collect(run);
    let result: Value;
    try {
      result = impl(values, run);
      if (typeof result === 'string' && result.length > LIMITS.stringLength) throw textTooLong();
    } catch (error) {
      throw at(e, error);
    }
    // A text, list or dict a built-in gives is new (or counted as if it were).
    if (typeof result !== 'number') run.alloc(bytesOf(result));
    return result;
  };
  if (unit.counted) return general;
  // str() of a number made here (not a name's text, which stays as written) formats it in place.
  const text = e.name === 'str' && args.length === 1 ? branchOperand(e.args[0], ops[0]) : null;
  if (text) return numericText(text, general);
  const num = numericBuiltin(e, ops, unit);
  return num ? numericRoot(num, general) : general;
}

/** A call of a built-in of numbers with numeric arguments (see numericCall), or len() of a name's list or dict. */
function numericBuiltin(e: Extract<Expr, { type: 'call' }>, ops: Operand[], unit: Unit): NumBuilder | null {
  if (e.name === 'len') {
    const length = inPlace(e.args[0], unit, true);
    return length && builderOf(length);
  }
  if (!ops.length) return null;
  const nums: NumOperand[] = [];
  for (let i = 0; i < ops.length; i++) {
    const n = numOperand(e.args[i], ops[i], unit);
    if (!n) return null;
    nums.push(n);
  }
  return numericCall(e.name, nums);
}

/** Evaluates arguments in order into a fresh list (builtins get their own). */
function collector(args: Compiled[]): (run: Run) => Value[] {
  const [a, b, c] = args;
  switch (args.length) {
    case 0:
      return () => [];
    case 1:
      return (run) => [a(run)];
    case 2:
      return (run) => [a(run), b(run)];
    case 3:
      return (run) => [a(run), b(run), c(run)];
    default:
      return (run) => args.map((f) => f(run));
  }
}

/** The variable a statement writes, for error messages and the error-into-variable rule. */
function rootName(e: Expr): string | undefined {
  if (e.type === 'name') return e.name;
  if (e.type === 'index') return rootName(e.target);
  return undefined;
}

export function compileStatement(s: Statement, unit: Unit, callsHost: boolean): CompiledStatement {
  if (s.type === 'expr') {
    const expr = compileExpr(s.expr, unit);
    return { pos: s, callsHost, exec: (run) => void expr(run) };
  }
  const root = rootName(s.target);
  const target = root === undefined ? undefined : unit.names.slot(root);
  const value = s.value ? compileExpr(s.value, unit) : none;
  const clear = s.value === null;
  if (s.target.type === 'name' && target) {
    return { pos: s, target, callsHost, exec: (run) => writeName(run, target, value(run), clear) };
  }
  if (!target) {
    return {
      pos: s,
      callsHost,
      exec: () => {
        throw new FormulaError('only a variable or its elements can be assigned to', s.line, s.column);
      },
    };
  }
  // a[i][j] = v: find the container, change it, and store the whole variable again.
  const chain: Expr[] = [];
  let node: Expr = s.target;
  while (node.type === 'index') {
    chain.unshift(node.index);
    node = node.target;
  }
  const indexes = chain.map((x) => compileExpr(x, unit));
  return {
    pos: s,
    target,
    callsHost,
    exec: (run) => {
      const v = value(run);
      const base = readName(run, target);
      let container = base;
      const keys = indexes.map((f) => f(run));
      try {
        for (const key of keys.slice(0, -1)) container = getIndex(container, key, run);
        setIndex(container, keys[keys.length - 1], v, run);
      } catch (error) {
        throw at(s, error);
      }
      writeName(run, target, base, false);
    },
  };
}
