import { arity, arityMessage, builtins, type Plan, planAllows, planMessage } from './catalogue';
import { children, type Expr, type ParseError, type ParseResult, parseFormula } from './parser';

export interface Diagnostic {
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: 'error' | 'warning';
}

export function toDiagnostic(
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

/** Unknown functions and wrong argument counts, found before anything runs. */
export function checkCalls(e: Expr, out: ParseError[]) {
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

/** Every problem of a parsed formula, for the editor and for saving. */
export function diagnoseParsed(parsed: ParseResult, source: string): Diagnostic[] {
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

export const diagnose = (source: string): Diagnostic[] => diagnoseParsed(parseFormula(source), source);

/** Each call the project's plan does not allow, as a warning where it is written: it fails at run time. */
export function planDiagnostics(parts: readonly Expr[], source: string, plan: Plan): Diagnostic[] {
  const found: Diagnostic[] = [];
  const visit = (x: Expr) => {
    const entry = x.type === 'call' ? builtins.get(x.name) : undefined;
    if (x.type === 'call' && entry && !planAllows(entry, plan)) {
      const at = {
        ...x,
        end: x.nameEnd,
        message: `${planMessage(x.name, plan)}: the call fails when it runs`,
      };
      found.push({ ...toDiagnostic(at, source), severity: 'warning' });
    }
    for (const child of children(x)) visit(child);
  };
  for (const part of parts) visit(part);
  return found;
}
