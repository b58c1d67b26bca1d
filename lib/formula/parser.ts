import { type Token, tokenize } from './lexer';
import { LIMITS } from './limits';

export interface Pos {
  line: number;
  column: number;
  offset: number;
  end: number;
}

export type Expr = Pos &
  (
    | { type: 'number'; value: number }
    | { type: 'string'; value: string }
    | { type: 'bool'; value: boolean }
    | { type: 'none' }
    | { type: 'name'; name: string }
    | { type: 'list'; items: Expr[] }
    | { type: 'dict'; entries: [Expr, Expr][] }
    | { type: 'unary'; op: '-' | '+' | 'not'; arg: Expr }
    | { type: 'binary'; op: string; left: Expr; right: Expr }
    | { type: 'logical'; op: 'and' | 'or'; left: Expr; right: Expr }
    | { type: 'call'; name: string; args: Expr[]; nameEnd: number }
    | { type: 'index'; target: Expr; index: Expr }
  );

export type Statement = Pos &
  ({ type: 'assign'; target: Expr; value: Expr | null } | { type: 'expr'; expr: Expr });

export interface ParseError {
  message: string;
  line: number;
  column: number;
  offset: number;
  end: number;
}

export interface ParseResult {
  statements: Statement[];
  errors: ParseError[];
  tokens: Token[];
}

class Abort extends Error {}

/** Binary operators by how tightly they bind: comparisons, then sums, then products. */
const BINARY_LEVEL = new Map<string, number>([
  ...['==', '!=', '<', '>', '<=', '>='].map((op) => [op, 0] as const),
  ...['+', '-'].map((op) => [op, 1] as const),
  ...['*', '/', '%'].map((op) => [op, 2] as const),
]);
const OR = new Set(['or', 'OR', '||']);
const AND = new Set(['and', 'AND', '&&']);
const NOT = new Set(['not', 'NOT', '!']);
const SIGN = new Set(['-', '+']);
const POWER = new Set(['**', '^']);

/**
 * Parses a formula: one statement per line (lines join inside brackets). Every line is parsed
 * even after an error, so the editor can mark all of them.
 */
export function parseFormula(source: string): ParseResult {
  if (source.length > LIMITS.sourceLength) {
    const error = {
      message: `the formula is longer than ${LIMITS.sourceLength} characters`,
      line: 1,
      column: 1,
      offset: 0,
      end: 0,
    };
    return { statements: [], errors: [error], tokens: [] };
  }
  const tokens = tokenize(source);
  return new Parser(tokens).parseProgram();
}

/** Parses one expression (comparison expressions, `#{...}` in templates). */
export function parseExpression(source: string): {
  expr: Expr | null;
  errors: ParseError[];
  tokens: Token[];
} {
  const result = parseFormula(source);
  const [first] = result.statements;
  const errors = [...result.errors];
  if (!errors.length && (result.statements.length !== 1 || first.type !== 'expr')) {
    errors.push({
      message: 'an expression is expected here (no assignments, one line)',
      line: 1,
      column: 1,
      offset: 0,
      end: source.length,
    });
  }
  return {
    expr: !errors.length && first?.type === 'expr' ? first.expr : null,
    errors,
    tokens: result.tokens,
  };
}

class Parser {
  private i = 0;
  private depth = 0;
  private readonly code: Token[];
  private readonly errors: ParseError[] = [];

  constructor(private readonly all: Token[]) {
    this.code = all.filter((t) => t.kind !== 'comment');
  }

  parseProgram(): ParseResult {
    const statements: Statement[] = [];
    for (const t of this.all)
      if (t.kind === 'error') this.errors.push(errorAt(t, t.message ?? 'unexpected text'));
    const lexErrorLines = new Set(this.errors.map((e) => e.line));
    while (this.peekRaw().kind !== 'eof') {
      if (this.peekRaw().kind === 'newline') {
        this.i++;
        continue;
      }
      const startLine = this.peekRaw().line;
      const start = this.i;
      try {
        const statement = this.statement();
        this.endOfStatement();
        // A tree is no deeper than it has tokens, so short statements (nearly all) need no walk.
        if (this.i - start > LIMITS.chainDepth) this.checkDepth(statement);
        if (!lexErrorLines.has(startLine)) statements.push(statement);
      } catch (error) {
        if (!(error instanceof Abort)) throw error;
        this.skipLine();
      }
    }
    return { statements, errors: this.errors, tokens: this.all };
  }

  /**
   * Refuses a statement whose operators nest deeper than LIMITS.chainDepth, a chain like
   * `1 + 1 + …` counting each: compiling or evaluating it would run out of stack.
   */
  private checkDepth(s: Statement) {
    const stack: Expr[] = s.type === 'expr' ? [s.expr] : s.value ? [s.target, s.value] : [s.target];
    // The operators above a node: a leaf of `1 + 1 + 1` has two.
    const depths = stack.map(() => 0);
    for (let x = stack.pop(); x; x = stack.pop()) {
      const depth = depths.pop() as number;
      if (depth > LIMITS.chainDepth) {
        this.errors.push({
          message: `more than ${LIMITS.chainDepth} operators inside one another in one statement (a chain like a + b + c counts each); split it over several lines`,
          line: x.line,
          column: x.column,
          offset: x.offset,
          end: x.end,
        });
        throw new Abort();
      }
      for (const child of children(x)) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }

  private peekRaw(): Token {
    return this.code[this.i];
  }

  /** Inside brackets a line break is only white space. */
  private peek(): Token {
    if (this.depth > 0) while (this.code[this.i].kind === 'newline') this.i++;
    return this.code[this.i];
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.i++;
    return t;
  }

  private is(text: string, kind?: Token['kind']): boolean {
    const t = this.peek();
    return (
      t.text === text &&
      (kind ? t.kind === kind : t.kind === 'operator' || t.kind === 'punct' || t.kind === 'keyword')
    );
  }

  /** Whether the next token is an operator, bracket or keyword of the set. */
  private isOneOf(texts: ReadonlySet<string>): boolean {
    const t = this.peek();
    return texts.has(t.text) && (t.kind === 'operator' || t.kind === 'punct' || t.kind === 'keyword');
  }

  private fail(t: Token, message: string): never {
    this.errors.push(errorAt(t, message));
    throw new Abort();
  }

  private skipLine() {
    this.depth = 0;
    while (this.peekRaw().kind !== 'newline' && this.peekRaw().kind !== 'eof') this.i++;
  }

  private endOfStatement() {
    const t = this.peekRaw();
    if (t.kind !== 'newline' && t.kind !== 'eof') {
      if (t.kind === 'error') throw new Abort();
      this.fail(
        t,
        t.text === ')' || t.text === ']' || t.text === '}'
          ? `'${t.text}' has no opening bracket`
          : `unexpected '${t.text}': one statement per line`,
      );
    }
  }

  private statement(): Statement {
    const first = this.peek();
    const expr = this.expression();
    if (this.peek().kind === 'operator' && this.peek().text === '=') {
      if (expr.type !== 'name' && expr.type !== 'index')
        this.fail(this.peek(), 'only a variable or an element like a[0] can be assigned to');
      this.next();
      const after = this.peekRaw();
      const value = after.kind === 'newline' || after.kind === 'eof' ? null : this.expression();
      return {
        type: 'assign',
        target: expr,
        value,
        line: first.line,
        column: first.column,
        offset: first.offset,
        end: (value ?? expr).end,
      };
    }
    return {
      type: 'expr',
      expr,
      line: first.line,
      column: first.column,
      offset: first.offset,
      end: expr.end,
    };
  }

  private expression(): Expr {
    return this.or();
  }

  private nested<T>(fn: () => T): T {
    this.nesting++;
    if (this.nesting > LIMITS.depth) {
      this.fail(
        this.peek(),
        `the formula nests brackets and operators more than ${LIMITS.depth} levels deep; simplify it`,
      );
    }
    try {
      return fn();
    } finally {
      this.nesting--;
    }
  }

  private nesting = 0;

  private or(): Expr {
    let left = this.and();
    while (this.isOneOf(OR)) {
      this.next();
      const right = this.and();
      left = pairNode('logical', 'or', left, right);
    }
    return left;
  }

  private and(): Expr {
    let left = this.not();
    while (this.isOneOf(AND)) {
      this.next();
      const right = this.not();
      left = pairNode('logical', 'and', left, right);
    }
    return left;
  }

  private not(): Expr {
    if (this.isOneOf(NOT)) {
      const t = this.next();
      return this.nested(() => {
        const arg = this.not();
        return unaryNode('not', t, arg);
      });
    }
    return this.binary(0);
  }

  /** Precedence climbing over BINARY_LEVEL; every level is left-associative. */
  private binary(minLevel: number): Expr {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      const level = t.kind === 'operator' ? BINARY_LEVEL.get(t.text) : undefined;
      if (level === undefined || level < minLevel) return left;
      this.next();
      const right = this.binary(level + 1);
      left = pairNode('binary', t.text, left, right);
    }
  }

  private unary(): Expr {
    if (this.isOneOf(SIGN)) {
      const t = this.next();
      return this.nested(() => {
        const arg = this.unary();
        return unaryNode(t.text as '-' | '+', t, arg);
      });
    }
    return this.power();
  }

  /** `**` and `^` bind tighter than unary minus on their left and are right-associative. */
  private power(): Expr {
    const base = this.postfix();
    if (this.isOneOf(POWER)) {
      this.next();
      const exponent = this.nested(() => this.unary());
      return pairNode('binary', '**', base, exponent);
    }
    return base;
  }

  private postfix(): Expr {
    let expr = this.primary();
    while (this.is('[', 'punct')) {
      const open = this.next();
      const index = this.bracketed(open, ']', () => this.or());
      expr = {
        type: 'index',
        target: expr,
        index,
        line: expr.line,
        column: expr.column,
        offset: expr.offset,
        end: this.code[this.i - 1].end,
      };
    }
    return expr;
  }

  private bracketed<T>(open: Token, close: string, body: () => T): T {
    this.depth++;
    const result = this.nested(body);
    const t = this.peek();
    this.depth--;
    if (t.text !== close) {
      this.fail(t, `missing closing bracket for '${open.text}' opened at ${open.line}:${open.column}`);
    }
    this.next();
    return result;
  }

  private list<T>(open: Token, close: string, item: () => T): T[] {
    return this.bracketed(open, close, () => {
      const items: T[] = [];
      while (!this.is(close, 'punct') && this.peek().kind !== 'eof') {
        items.push(item());
        if (!this.is(',', 'punct')) break;
        this.next();
      }
      return items;
    });
  }

  private primary(): Expr {
    // A line's end is left in place, so recovery resumes on the next line rather than after it.
    if (this.peek().kind === 'newline' || this.peek().kind === 'eof')
      this.fail(this.peek(), 'the line ends where a value is expected');
    const t = this.next();
    switch (t.kind) {
      case 'number':
        return {
          type: 'number',
          value: Number(t.text),
          line: t.line,
          column: t.column,
          offset: t.offset,
          end: t.end,
        };
      case 'string':
        return {
          type: 'string',
          value: t.value ?? '',
          line: t.line,
          column: t.column,
          offset: t.offset,
          end: t.end,
        };
      case 'keyword':
        if (t.text === 'True' || t.text === 'False')
          return {
            type: 'bool',
            value: t.text === 'True',
            line: t.line,
            column: t.column,
            offset: t.offset,
            end: t.end,
          };
        if (t.text === 'None')
          return { type: 'none', line: t.line, column: t.column, offset: t.offset, end: t.end };
        break;
      case 'name':
        if (this.is('(', 'punct')) {
          const open = this.next();
          const args = this.list(open, ')', () => this.or());
          return {
            type: 'call',
            name: t.text,
            args,
            nameEnd: t.end,
            line: t.line,
            column: t.column,
            offset: t.offset,
            end: this.code[this.i - 1].end,
          };
        }
        return { type: 'name', name: t.text, line: t.line, column: t.column, offset: t.offset, end: t.end };
      case 'punct':
        if (t.text === '(') {
          const inner = this.bracketed(t, ')', () => this.or());
          return {
            ...inner,
            line: t.line,
            column: t.column,
            offset: t.offset,
            end: this.code[this.i - 1].end,
          };
        }
        if (t.text === '[') {
          const items = this.list(t, ']', () => this.or());
          return {
            type: 'list',
            items,
            line: t.line,
            column: t.column,
            offset: t.offset,
            end: this.code[this.i - 1].end,
          };
        }
        if (t.text === '{') {
          const entries = this.list(t, '}', () => {
            const key = this.or();
            if (!this.is(':', 'punct'))
              this.fail(
                this.peek(),
                "a dict entry needs ':' between the key and the value, like {'key': 'value'}",
              );
            this.next();
            return [key, this.or()] as [Expr, Expr];
          });
          return {
            type: 'dict',
            entries,
            line: t.line,
            column: t.column,
            offset: t.offset,
            end: this.code[this.i - 1].end,
          };
        }
        break;
      case 'error':
        throw new Abort();
    }
    return this.fail(t, `unexpected '${t.text}' where a value is expected`);
  }
}

/** The sub-expressions of an expression, in evaluation order. */
export function children(x: Expr): Expr[] {
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

// Nodes are built with their positions spelled out: spreading a position in is several times slower.

/** `left op right` (an operator or and/or), from the start of left to the end of right. */
function pairNode(type: 'binary' | 'logical', op: string, left: Expr, right: Expr): Expr {
  return {
    type,
    op,
    left,
    right,
    line: left.line,
    column: left.column,
    offset: left.offset,
    end: right.end,
  } as Expr;
}

/** `op arg`, from the operator to the end of arg. */
function unaryNode(op: '-' | '+' | 'not', t: Token, arg: Expr): Expr {
  return { type: 'unary', op, arg, line: t.line, column: t.column, offset: t.offset, end: arg.end };
}

function errorAt(t: Token, message: string): ParseError {
  return { message, line: t.line, column: t.column, offset: t.offset, end: Math.max(t.end, t.offset + 1) };
}
