import {
  at,
  type Compiled,
  type CompiledStatement,
  compileExpr,
  compileStatement,
  measure,
  namedOnce,
  statementParts,
} from './closures';
import { checkCalls, type Diagnostic, diagnoseParsed, toDiagnostic } from './diagnose';
import { executeWithHost } from './host-calls';
import { type Pos, parseExpression, parseFormula } from './parser';
import { CLOCK_EVERY, NameTable, ReusedRun, Run, RunLimitError, type RunOptions } from './run-state';
import { checkTextSize, copyValue, FormulaError, type Value } from './values';

export { type Diagnostic, diagnose } from './diagnose';
export type { FormulaHost, Plan, RunOptions, VariableStore } from './run-state';

export interface RuntimeError {
  message: string;
  line: number;
  column: number;
  target?: string;
  /** The in-flow function whose call failed, when one did. */
  call?: string;
}

export interface CompiledFormula {
  diagnostics: Diagnostic[];
  run(options: RunOptions): Promise<{ errors: RuntimeError[] }>;
}

export interface CompiledExpression {
  diagnostics: Diagnostic[];
  /** Whether the expression calls in-flow functions; only evaluate() can run those. */
  callsHost: boolean;
  evaluate(options: RunOptions): Promise<Value>;
  /** evaluate() without a promise, for expressions that call no in-flow function. */
  evaluateSync(options: RunOptions): Value;
}

/** Compiles a formula once; run() evaluates it as often as needed. */
export function compileFormula(source: string): CompiledFormula {
  const parsed = parseFormula(source);
  const facts = parsed.statements.map((s) => measure(statementParts(s)));
  const nodes = facts.reduce((sum, f) => sum + f.nodes, 0);
  const names = new NameTable(false);
  const callsHost = facts.some((f) => f.callsHost);
  const unit = { names, counted: callsHost || nodes >= CLOCK_EVERY };
  const statements = parsed.statements.map((s, i) => compileStatement(s, unit, facts[i].callsHost));
  const reused = new ReusedRun(names, unit.counted);
  const runAll = (run: Run) => {
    const errors: RuntimeError[] = [];
    for (const statement of statements) {
      try {
        statement.exec(run);
      } catch (error) {
        if (recordError(run, statement, error, errors)) break;
      }
    }
    return { errors };
  };
  return {
    diagnostics: diagnoseParsed(parsed, source),
    async run(options) {
      if (!callsHost) return reused.use(options, runAll);
      // Runs awaiting in-flow calls may interleave, so each has its own state.
      const run = new Run(options, names, true);
      const errors: RuntimeError[] = [];
      for (const statement of statements) {
        try {
          if (statement.callsHost) await executeWithHost(run, statement.exec, statement.pos);
          else statement.exec(run);
        } catch (error) {
          if (recordError(run, statement, error, errors)) break;
        }
      }
      return { errors };
    },
  };
}

/**
 * A failing line writes its error into its variable; the other lines still run, unless a limit
 * of the whole run was reached (then true).
 */
function recordError(run: Run, statement: CompiledStatement, error: unknown, errors: RuntimeError[]) {
  const e = at(statement.pos, error);
  const target = statement.target;
  errors.push({ message: e.message, line: e.line, column: e.column, target: target?.name, call: e.call });
  if (target && !target.name.startsWith('project.')) {
    try {
      run.options.store.set(target.name, `Error: ${e.message}`);
      run.values[target.index] = `Error: ${e.message}`;
    } catch {
      // the target itself refused (a system variable): the error is reported above
    }
  }
  return e instanceof RunLimitError;
}

/** Compiles one expression (comparison expressions, `#{...}` in templates). */
export function compileExpression(source: string): CompiledExpression {
  const parsed = parseExpression(source);
  const found = [...parsed.errors];
  if (parsed.expr) checkCalls(parsed.expr, found);
  const diagnostics = found.map((e) => toDiagnostic(e, source));
  const { nodes, callsHost } = measure(parsed.expr ? [parsed.expr] : []);
  // Nothing in an expression changes a list or dict, so those read from the store may be kept
  // between runs, unless an in-flow call could see them; results are copied out. Without
  // in-flow calls nothing is evaluated twice, so a name mentioned once is read once.
  const names =
    callsHost || !parsed.expr ? new NameTable(false) : new NameTable(true, namedOnce(parsed.expr));
  const unit = { names, counted: callsHost || nodes >= CLOCK_EVERY };
  const expr = parsed.expr ? compileExpr(parsed.expr, unit) : null;
  return new Expression(diagnostics, callsHost, expr, parsed.expr, names, unit.counted);
}

/**
 * A compiled expression. Its methods are the class's, one function for every expression (not
 * closures made anew by each compile), so that V8 optimises them once and inlines them where
 * they are called.
 */
class Expression implements CompiledExpression {
  private readonly reused: ReusedRun;

  constructor(
    readonly diagnostics: Diagnostic[],
    readonly callsHost: boolean,
    private readonly expr: Compiled | null,
    private readonly pos: Pos | null,
    private readonly names: NameTable,
    counted: boolean,
  ) {
    this.reused = new ReusedRun(names, counted);
  }

  private refuse(): never {
    if (this.expr) throw new Error('this expression calls in-flow functions: use evaluate()');
    throw this.unusable();
  }

  private unusable(): FormulaError {
    const first = this.diagnostics[0];
    return new FormulaError(first?.message ?? 'empty expression', first?.line ?? 1, first?.column ?? 1);
  }

  evaluateSync(options: RunOptions): Value {
    const expr = this.expr;
    // (One test, and the errors apart: V8 inlines only so much bytecode into one function.)
    if (expr === null || this.callsHost) this.refuse();
    const result = this.reused.use(options, expr);
    // Lists and dicts may be kept for later runs, so the caller gets a copy (measured first: see
    // copyValue); the rest as it is.
    return typeof result === 'object' && result !== null ? copyValue(result) : result;
  }

  async evaluate(options: RunOptions): Promise<Value> {
    const expr = this.expr;
    const pos = this.pos;
    if (!this.callsHost || !expr || !pos) return this.evaluateSync(options);
    const run = new Run(options, this.names, true);
    let result: Value = null;
    await executeWithHost(
      run,
      (r) => {
        result = expr(r);
      },
      pos,
    );
    // What the caller will write out as text: measured first, like any value given out.
    checkTextSize(result, run);
    return result;
  }
}
