export type TokenKind =
  | 'number'
  | 'string'
  | 'name'
  | 'keyword'
  | 'operator'
  | 'punct'
  | 'newline'
  | 'comment'
  | 'error'
  | 'eof';

export interface Token {
  kind: TokenKind;
  text: string;
  /** For strings: the value with escapes resolved. */
  value?: string;
  offset: number;
  end: number;
  line: number;
  column: number;
  /** Set on `error` tokens. */
  message?: string;
}

export const KEYWORDS = new Set(['and', 'or', 'not', 'AND', 'OR', 'NOT', 'True', 'False', 'None']);
const OPERATORS = [
  '**',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '<',
  '>',
  '=',
  '!',
];
const PUNCT = new Set(['(', ')', '[', ']', '{', '}', ',', ':']);
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', "'": "'", '"': '"', r: '\r' };

/**
 * Splits a formula into tokens, never throwing: problems become `error` tokens with a message,
 * so the parser and the editor can report all of them.
 */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const push = (kind: TokenKind, start: number, extra: Partial<Token> = {}) =>
    tokens.push({
      kind,
      text: source.slice(start, i),
      offset: start,
      end: i,
      line: startLine,
      column: start - startLineStart + 1,
      ...extra,
    });
  let startLine = 1;
  let startLineStart = 0;

  while (i < source.length) {
    const c = source[i];
    startLine = line;
    startLineStart = lineStart;
    const start = i;
    if (c === '\n') {
      i++;
      push('newline', start);
      line++;
      lineStart = i;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (c === '/' && source[i + 1] === '*') {
      const close = source.indexOf('*/', i + 2);
      const stop = close === -1 ? source.length : close + 2;
      for (let j = i; j < stop; j++) {
        if (source[j] === '\n') {
          line++;
          lineStart = j + 1;
        }
      }
      i = stop;
      push(
        close === -1 ? 'error' : 'comment',
        start,
        close === -1 ? { message: "the comment '/*' is never closed with '*/'" } : {},
      );
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      while (/[0-9]/.test(source[i] ?? '')) i++;
      if (source[i] === '.' && /[0-9]/.test(source[i + 1] ?? '')) {
        i++;
        while (/[0-9]/.test(source[i] ?? '')) i++;
      }
      if (/[eE]/.test(source[i] ?? '') && /[-+0-9]/.test(source[i + 1] ?? '')) {
        i += 2;
        while (/[0-9]/.test(source[i] ?? '')) i++;
      }
      push('number', start);
    } else if (c === "'" || c === '"') {
      i++;
      let value = '';
      let closed = false;
      while (i < source.length && source[i] !== '\n') {
        const ch = source[i];
        if (ch === '\\' && i + 1 < source.length) {
          value += ESCAPES[source[i + 1]] ?? `\\${source[i + 1]}`;
          i += 2;
        } else if (ch === c) {
          i++;
          closed = true;
          break;
        } else {
          value += ch;
          i++;
        }
      }
      if (closed) push('string', start, { value });
      else
        push('error', start, { message: `the text starting with ${c} is never closed: add a closing ${c}` });
    } else if (/[\p{L}_]/u.test(c)) {
      while (/[\p{L}\p{N}_.]/u.test(source[i] ?? '')) i++;
      // A trailing dot is not part of a name.
      while (source[i - 1] === '.') i--;
      const text = source.slice(start, i);
      push(KEYWORDS.has(text) ? 'keyword' : 'name', start);
    } else if (PUNCT.has(c)) {
      i++;
      push('punct', start);
    } else {
      const op = OPERATORS.find((o) => source.startsWith(o, i));
      if (op) {
        i += op.length;
        push('operator', start);
      } else {
        i++;
        push('error', start, { message: `'${c}' is not part of the formula language` });
      }
    }
  }
  startLine = line;
  startLineStart = lineStart;
  const end = i;
  tokens.push({ kind: 'eof', text: '', offset: end, end, line, column: end - lineStart + 1 });
  return tokens;
}
