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
  /** Set on the `error` token of a text or comment never closed: everything after it is inside. */
  unclosed?: true;
}

export const KEYWORDS = new Set(['and', 'or', 'not', 'AND', 'OR', 'NOT', 'True', 'False', 'None']);
const TWO_CHAR_OPERATORS = new Set(['**', '==', '!=', '<=', '>=', '&&', '||']);
const ONE_CHAR_OPERATORS = new Set(['+', '-', '*', '/', '%', '^', '<', '>', '=', '!']);
const PUNCT = new Set(['(', ')', '[', ']', '{', '}', ',', ':']);
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', "'": "'", '"': '"', r: '\r' };

// Character classes by code, without regular expressions for ASCII (the hot loop).
const isDigit = (c: number) => c >= 48 && c <= 57;
const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isExponent = (c: number) => c === 101 || c === 69;
const isSign = (c: number) => c === 43 || c === 45;
const LETTER = /\p{L}/u;
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
const startsName = (c: number, ch: string) => isAsciiLetter(c) || (c >= 128 && LETTER.test(ch));
const continuesName = (c: number, ch: string) =>
  isAsciiLetter(c) || isDigit(c) || c === 46 || (c >= 128 && LETTER_OR_NUMBER.test(ch));

/**
 * Splits a formula into tokens, never throwing: problems become `error` tokens with a message,
 * so the parser and the editor can report all of them.
 */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const length = source.length;
  let i = 0;
  let line = 1;
  let lineStart = 0;
  // Where the current token starts: a comment or text may end on a later line.
  let startLine = 1;
  let startColumn = 1;
  const token = (kind: TokenKind, start: number): Token => {
    const t: Token = {
      kind,
      text: source.slice(start, i),
      offset: start,
      end: i,
      line: startLine,
      column: startColumn,
    };
    tokens.push(t);
    return t;
  };
  const unclosed = (start: number, message: string) => {
    const t = token('error', start);
    t.message = message;
    t.unclosed = true;
  };
  const countLines = (from: number, to: number) => {
    for (let j = source.indexOf('\n', from); j !== -1 && j < to; j = source.indexOf('\n', j + 1)) {
      line++;
      lineStart = j + 1;
    }
  };

  while (i < length) {
    const c = source.charCodeAt(i);
    const start = i;
    startLine = line;
    startColumn = start - lineStart + 1;
    if (c === 10) {
      i++;
      token('newline', start);
      line++;
      lineStart = i;
    } else if (c === 32 || c === 9 || c === 13) {
      i++;
    } else if (c === 47 && source.charCodeAt(i + 1) === 42) {
      const close = source.indexOf('*/', i + 2);
      i = close === -1 ? length : close + 2;
      countLines(start, i);
      if (close === -1) unclosed(start, "the comment '/*' is never closed with '*/'");
      else token('comment', start);
    } else if (isDigit(c) || (c === 46 && isDigit(source.charCodeAt(i + 1)))) {
      while (isDigit(source.charCodeAt(i))) i++;
      if (source.charCodeAt(i) === 46 && isDigit(source.charCodeAt(i + 1))) {
        i++;
        while (isDigit(source.charCodeAt(i))) i++;
      }
      if (isExponent(source.charCodeAt(i))) {
        const sign = source.charCodeAt(i + 1) === 43 || source.charCodeAt(i + 1) === 45 ? 1 : 0;
        if (isDigit(source.charCodeAt(i + 1 + sign))) {
          i += 2 + sign;
          while (isDigit(source.charCodeAt(i))) i++;
        }
      }
      const valid = i;
      // Letters, dots or an exponent's sign run on: one malformed literal, not a number and a name.
      while (
        i < length &&
        (continuesName(source.charCodeAt(i), source[i]) ||
          (isSign(source.charCodeAt(i)) && isExponent(source.charCodeAt(i - 1))))
      )
        i++;
      const problem = numberProblem(source.slice(start, valid), source.slice(valid, i));
      if (problem) token('error', start).message = problem;
      else token('number', start);
    } else if (c === 39 || c === 34) {
      const [end, value] = readString(source, i, c);
      i = end;
      // (An escaped line break continues the text on the next line.)
      countLines(start, i);
      if (value !== null) token('string', start).value = value;
      else {
        const quote = source[start];
        unclosed(start, `the text starting with ${quote} is never closed: add a closing ${quote}`);
      }
    } else if (startsName(c, source[i])) {
      i++;
      while (i < length && continuesName(source.charCodeAt(i), source[i])) i++;
      // A trailing dot is not part of a name.
      while (source.charCodeAt(i - 1) === 46) i--;
      const t = token('name', start);
      if (KEYWORDS.has(t.text)) t.kind = 'keyword';
    } else {
      const ch = source[i];
      if (PUNCT.has(ch)) {
        i++;
        token('punct', start);
      } else if (TWO_CHAR_OPERATORS.has(source.slice(i, i + 2))) {
        i += 2;
        token('operator', start);
      } else if (ONE_CHAR_OPERATORS.has(ch)) {
        i++;
        token('operator', start);
      } else {
        i++;
        token('error', start).message = `'${ch}' is not part of the formula language`;
      }
    }
  }
  startLine = line;
  startColumn = i - lineStart + 1;
  token('eof', i);
  return tokens;
}

/** What is wrong with a number literal: its valid start and what runs on after it. */
function numberProblem(number: string, runOn: string): string | null {
  const text = number + runOn;
  if (isExponent(runOn.charCodeAt(0)))
    return `'${text}' is not a number: the exponent needs digits, like 1e+3`;
  if (runOn.startsWith('.'))
    return /[.eE]/.test(number)
      ? `'${text}' is not a number: a number has one dot`
      : `'${text}' is not a number: write digits after the dot, like 1.0`;
  if (runOn) return `'${text}' is not a number: a name cannot start with a digit`;
  return Number.isFinite(Number(number)) ? null : `'${text}' is too large for a number`;
}

/**
 * A quoted text from its opening quote to the closing one (not past the line's end), with
 * escapes resolved: where it stops, and its value (null when it is never closed).
 */
function readString(source: string, from: number, quote: number): [number, string | null] {
  let i = from + 1;
  let value = '';
  let chunk = i;
  while (i < source.length) {
    const c = source.charCodeAt(i);
    if (c === 10) break;
    if (c === 92 && i + 1 < source.length) {
      const next = source[i + 1];
      value += source.slice(chunk, i) + (ESCAPES[next] ?? `\\${next}`);
      i += 2;
      chunk = i;
    } else if (c === quote) {
      return [i + 1, value + source.slice(chunk, i)];
    } else i++;
  }
  return [i, null];
}
