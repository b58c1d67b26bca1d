import { arity, type BuiltinContext, builtins } from './catalogue';
import { binary, checkList, getIndex, setIndex, unary } from './evaluate';
import { LIMITS } from './limits';
import {
  type Expr,
  type ParseError,
  type Pos,
  parseExpression,
  parseFormula,
  type Statement,
} from './parser';
import {
  deserializeValue,
  FormulaError,
  isTruthy,
  serializeValue,
  toDisplayString,
  type Value,
} from './values';

/** Variables as the engine stores them: text, with `client.` and `project.` prefixes kept. */
export interface VariableStore {
  get(name: string): string | undefined;
  set(name: string, value: string | null): void;
}

/** The in-flow functions with I/O, provided by the server. */
export interface FormulaHost {
  call(name: string, args: Value[]): Promise<Value>;
}

export type Plan = 'free' | 'business' | 'ai';

export interface RunOptions {
  store: VariableStore;
  host?: FormulaHost;
  plan: Plan;
  now?: () => Date;
  random?: () => number;
  timeZone?: string;
}

export interface Diagnostic {
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: 'error' | 'warning';
}

export interface RuntimeError {
  message: string;
  line: number;
  column: number;
  target?: string;
}

export interface CompiledFormula {
  diagnostics: Diagnostic[];
  run(options: RunOptions): Promise<{ errors: RuntimeError[] }>;
}

export interface CompiledExpression {
  diagnostics: Diagnostic[];
  evaluate(options: RunOptions): Promise<Value>;
}

/** State of one run. Host calls are replayed: see NeedsHost. */
interface Run {
  options: RunOptions;
  locals: Map<string, Value>;
  steps: number;
  deadline: number;
  builtin: BuiltinContext;
  hostResults: Value[];
  hostIndex: number;
  hostCalls: number;
  randoms: number[];
  randomIndex: number;
}

type Compiled = (run: Run) => Value;

/**
 * An in-flow call whose result is not known yet. The statement stops, the runner awaits the
 * host, and evaluates the statement again with the result recorded (and the same random
 * numbers), so pure evaluation stays synchronous closures.
 */
class NeedsHost {
  constructor(
    readonly name: string,
    readonly args: Value[],
  ) {}
}

function at(pos: Pos, error: unknown): FormulaError {
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

function tick(run: Run) {
  if (++run.steps > LIMITS.steps) throw new FormulaError(`the formula took more than ${LIMITS.steps} steps`);
  if ((run.steps & 1023) === 0 && Date.now() > run.deadline) {
    throw new FormulaError(`the formula ran longer than ${LIMITS.wallTimeMs} ms`);
  }
}

function readName(run: Run, name: string): Value {
  if (run.locals.has(name)) return run.locals.get(name) as Value;
  const stored = run.options.store.get(name);
  const value = stored === undefined ? null : deserializeValue(stored);
  run.locals.set(name, value);
  return value;
}

function compileExpr(e: Expr): Compiled {
  switch (e.type) {
    case 'number':
    case 'string':
    case 'bool': {
      const value = e.value;
      return () => value;
    }
    case 'none':
      return () => null;
    case 'name': {
      const name = e.name;
      return (run) => {
        tick(run);
        return readName(run, name);
      };
    }
    case 'list': {
      const items = e.items.map(compileExpr);
      return (run) => {
        tick(run);
        return checkList(items.map((f) => f(run)));
      };
    }
    case 'dict': {
      const entries = e.entries.map(([k, v]) => [compileExpr(k), compileExpr(v)] as const);
      return (run) => {
        tick(run);
        const map = new Map<string, Value>();
        for (const [k, v] of entries) map.set(toDisplayString(k(run)), v(run));
        return map;
      };
    }
    case 'unary': {
      const arg = compileExpr(e.arg);
      const op = e.op;
      return (run) => {
        tick(run);
        const v = arg(run);
        try {
          return unary(op, v);
        } catch (error) {
          throw at(e, error);
        }
      };
    }
    case 'logical': {
      const left = compileExpr(e.left);
      const right = compileExpr(e.right);
      return e.op === 'and'
        ? (run) => {
            tick(run);
            const l = left(run);
            return isTruthy(l) ? right(run) : l;
          }
        : (run) => {
            tick(run);
            const l = left(run);
            return isTruthy(l) ? l : right(run);
          };
    }
    case 'binary': {
      const left = compileExpr(e.left);
      const right = compileExpr(e.right);
      const op = e.op;
      return (run) => {
        tick(run);
        const a = left(run);
        const b = right(run);
        try {
          return binary(op, a, b);
        } catch (error) {
          throw at(e, error);
        }
      };
    }
    case 'index': {
      const target = compileExpr(e.target);
      const index = compileExpr(e.index);
      return (run) => {
        tick(run);
        const t = target(run);
        const i = index(run);
        try {
          return getIndex(t, i);
        } catch (error) {
          throw at(e, error);
        }
      };
    }
    case 'call':
      return compileCall(e);
  }
}

function compileCall(e: Extract<Expr, { type: 'call' }>): Compiled {
  const args = e.args.map(compileExpr);
  if (e.name === 'if') {
    // Lazy: only the branch it picks is evaluated.
    const [cond, then, otherwise] = args;
    return (run) => {
      tick(run);
      if (!cond) throw new FormulaError('if() needs a condition', e.line, e.column);
      if (isTruthy(cond(run))) return then ? then(run) : null;
      return otherwise ? otherwise(run) : null;
    };
  }
  const entry = builtins.get(e.name);
  return (run) => {
    tick(run);
    if (!entry) throw new FormulaError(`unknown function ${e.name}()`, e.line, e.column);
    const values = args.map((f) => f(run));
    const { min, max } = arity(entry);
    if (values.length < min || values.length > max) {
      throw new FormulaError(arityMessage(e.name, min, max, values.length), e.line, e.column);
    }
    if (entry.host) {
      if (run.options.plan === 'free') {
        throw new FormulaError(
          `${e.name}() needs the business or AI plan; this project is on the free plan`,
          e.line,
          e.column,
        );
      }
      if (run.hostIndex < run.hostResults.length) return run.hostResults[run.hostIndex++];
      throw new NeedsHost(e.name, values);
    }
    try {
      return entry.impl!(values, run.builtin);
    } catch (error) {
      throw at(e, error);
    }
  };
}

function arityMessage(name: string, min: number, max: number, got: number): string {
  const expected =
    min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
  return `${name}() takes ${expected} argument${expected === '1' ? '' : 's'}, got ${got}`;
}

/** The variable a statement writes, for error messages and the error-into-variable rule. */
function rootName(e: Expr): string | undefined {
  if (e.type === 'name') return e.name;
  if (e.type === 'index') return rootName(e.target);
  return undefined;
}

interface CompiledStatement {
  pos: Pos;
  target?: string;
  exec: (run: Run) => void;
}

function compileStatement(s: Statement): CompiledStatement {
  if (s.type === 'expr') {
    const expr = compileExpr(s.expr);
    return { pos: s, exec: (run) => void expr(run) };
  }
  const target = rootName(s.target);
  const value = s.value ? compileExpr(s.value) : () => null;
  if (s.target.type === 'name') {
    const name = s.target.name;
    return {
      pos: s,
      target,
      exec: (run) => {
        const v = value(run);
        writeName(run, name, v, s.value === null);
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
  if (node.type !== 'name') {
    return {
      pos: s,
      exec: () => {
        throw new FormulaError('only a variable or its elements can be assigned to', s.line, s.column);
      },
    };
  }
  const root = node.name;
  const indexes = chain.map(compileExpr);
  return {
    pos: s,
    target,
    exec: (run) => {
      const v = value(run);
      const base = readName(run, root);
      let container = base;
      const keys = indexes.map((f) => f(run));
      try {
        for (const key of keys.slice(0, -1)) container = getIndex(container, key);
        setIndex(container, keys[keys.length - 1], v);
      } catch (error) {
        throw at(s, error);
      }
      writeName(run, root, base, false);
    },
  };
}

function writeName(run: Run, name: string, value: Value, clear: boolean) {
  if (name.startsWith('project.'))
    throw new FormulaError(`${name} is a project constant and cannot be changed here`);
  run.options.store.set(name, clear || value === null ? null : serializeValue(value));
  run.locals.set(name, clear ? null : value);
}

function newRun(options: RunOptions): Run {
  const random = options.random ?? Math.random;
  const run: Run = {
    options,
    locals: new Map(),
    steps: 0,
    deadline: Date.now() + LIMITS.wallTimeMs,
    hostResults: [],
    hostIndex: 0,
    hostCalls: 0,
    randoms: [],
    randomIndex: 0,
    builtin: {
      now: options.now ?? (() => new Date()),
      timeZone: options.timeZone ?? 'UTC',
      // Replayed with the statement, so a re-run after a host call sees the same numbers.
      random: () => {
        if (run.randomIndex < run.randoms.length) return run.randoms[run.randomIndex++];
        const r = random();
        run.randoms.push(r);
        run.randomIndex++;
        return r;
      },
    },
  };
  return run;
}

/** Runs one statement to its end, awaiting in-flow calls as they come. */
async function execute(run: Run, exec: (run: Run) => void, pos: Pos): Promise<void> {
  run.hostResults = [];
  run.randoms = [];
  for (;;) {
    run.hostIndex = 0;
    run.randomIndex = 0;
    try {
      exec(run);
      return;
    } catch (error) {
      if (!(error instanceof NeedsHost)) throw error;
      if (!run.options.host)
        throw new FormulaError(`${error.name}() is not available here`, pos.line, pos.column);
      if (++run.hostCalls > LIMITS.hostCalls) {
        throw new FormulaError(
          `at most ${LIMITS.hostCalls} in-flow function calls per formula run`,
          pos.line,
          pos.column,
        );
      }
      const started = Date.now();
      try {
        run.hostResults.push(await run.options.host.call(error.name, error.args));
      } catch (hostError) {
        throw new FormulaError(`${error.name}(): ${(hostError as Error).message}`, pos.line, pos.column);
      } finally {
        // Waiting for the network does not count against the formula's own time.
        run.deadline += Date.now() - started;
      }
    }
  }
}

function toDiagnostic(
  e: { message: string; line: number; column: number; offset?: number; end?: number },
  source: string,
): Diagnostic {
  const length = Math.max(1, (e.end ?? 0) - (e.offset ?? 0));
  const endOffset = (e.offset ?? 0) + length;
  const before = source.slice(0, endOffset).split('\n');
  return {
    message: e.message,
    line: e.line,
    column: e.column,
    endLine: before.length,
    endColumn: (before.at(-1)?.length ?? 0) + 1,
    severity: 'error',
  };
}

function children(x: Expr): Expr[] {
  switch (x.type) {
    case 'call':
      return x.args;
    case 'list':
      return x.items;
    case 'dict':
      return x.entries.flat();
    case 'unary':
      return [x.arg];
    case 'binary':
    case 'logical':
      return [x.left, x.right];
    case 'index':
      return [x.target, x.index];
    default:
      return [];
  }
}

/** Unknown functions and wrong argument counts, found before anything runs. */
function checkCalls(e: Expr, out: ParseError[]) {
  const visit = (x: Expr) => {
    if (x.type === 'call') {
      const entry = builtins.get(x.name);
      if (x.name !== 'if' && !entry) {
        out.push({
          message: `unknown function ${x.name}()`,
          line: x.line,
          column: x.column,
          offset: x.offset,
          end: x.nameEnd,
        });
      } else if (entry) {
        const { min, max } = arity(entry);
        if (x.args.length < min || x.args.length > max) {
          out.push({
            message: arityMessage(x.name, min, max, x.args.length),
            line: x.line,
            column: x.column,
            offset: x.offset,
            end: x.end,
          });
        }
      }
    }
    for (const child of children(x)) visit(child);
  };
  visit(e);
}

export function diagnose(source: string): Diagnostic[] {
  const parsed = parseFormula(source);
  const found = [...parsed.errors];
  for (const s of parsed.statements) {
    if (s.type === 'expr') checkCalls(s.expr, found);
    else {
      checkCalls(s.target, found);
      if (s.value) checkCalls(s.value, found);
      if (s.target.type === 'name' && s.target.name.startsWith('project.')) {
        found.push({
          message: `${s.target.name} is a project constant and cannot be changed here`,
          ...s.target,
        });
      }
    }
  }
  return found.sort((a, b) => a.line - b.line || a.column - b.column).map((e) => toDiagnostic(e, source));
}

/** Compiles a formula once; run() evaluates it as often as needed. */
export function compileFormula(source: string): CompiledFormula {
  const parsed = parseFormula(source);
  const statements = parsed.statements.map(compileStatement);
  const diagnostics = diagnose(source);
  return {
    diagnostics,
    async run(options) {
      const run = newRun(options);
      const errors: RuntimeError[] = [];
      for (const statement of statements) {
        try {
          await execute(run, statement.exec, statement.pos);
        } catch (error) {
          const e = at(statement.pos, error);
          errors.push({ message: e.message, line: e.line, column: e.column, target: statement.target });
          // A failing line writes its error into its variable; the other lines still run.
          if (statement.target && !statement.target.startsWith('project.')) {
            try {
              options.store.set(statement.target, `Error: ${e.message}`);
              run.locals.set(statement.target, `Error: ${e.message}`);
            } catch {
              // the target itself refused (a system variable): the error is reported above
            }
          }
          if (/steps|ran longer/.test(e.message)) break;
        }
      }
      return { errors };
    },
  };
}

/** Compiles one expression (comparison expressions, `#{...}` in templates). */
export function compileExpression(source: string): CompiledExpression {
  const parsed = parseExpression(source);
  const found = [...parsed.errors];
  if (parsed.expr) checkCalls(parsed.expr, found);
  const diagnostics = found.map((e) => toDiagnostic(e, source));
  const expr = parsed.expr ? compileExpr(parsed.expr) : null;
  return {
    diagnostics,
    async evaluate(options) {
      if (!expr)
        throw new FormulaError(
          diagnostics[0]?.message ?? 'empty expression',
          diagnostics[0]?.line ?? 1,
          diagnostics[0]?.column ?? 1,
        );
      const run = newRun(options);
      let result: Value = null;
      await execute(
        run,
        (r) => {
          result = expr(r);
        },
        parsed.expr!,
      );
      return result;
    },
  };
}
