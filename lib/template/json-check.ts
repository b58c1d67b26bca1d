/** Where a JSON text is invalid: `offset` into the text and what is wrong there. */
export interface JsonSyntaxError {
  message: string;
  offset: number;
}

const MAX_JSON_DEPTH = 512;
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/**
 * Strict JSON syntax check with an offset. JSON.parse's messages carry positions in different forms
 * per engine (and none at all in some), and the builder needs one it can highlight.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0;
  const fail = (message: string, at = i): JsonSyntaxError => ({ message, offset: at });
  const unexpected = () =>
    i >= text.length ? 'Unexpected end of JSON' : `Unexpected character ${JSON.stringify(text[i])}`;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r'))
      i++;
  };

  const string = (): JsonSyntaxError | null => {
    const start = i++;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        i++;
        return null;
      }
      if (code < 0x20) return fail('Line breaks and control characters must be escaped inside a JSON string');
      if (code === 0x5c) {
        const next = text[i + 1];
        if (next === 'u') {
          if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) return fail('Invalid \\u escape');
          i += 6;
          continue;
        }
        if (next === undefined || !'"\\/bfnrt'.includes(next)) return fail('Invalid escape in a JSON string');
        i += 2;
        continue;
      }
      i++;
    }
    return fail('Unterminated JSON string', start);
  };

  const number = (): JsonSyntaxError | null => {
    NUMBER.lastIndex = i;
    if (!NUMBER.test(text)) return fail('Invalid number');
    i = NUMBER.lastIndex;
    return null;
  };

  const value = (depth: number): JsonSyntaxError | null => {
    if (depth > MAX_JSON_DEPTH) return fail(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    ws();
    const ch = text[i];
    if (ch === '"') return string();
    if (ch === '-' || (ch >= '0' && ch <= '9')) return number();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return null;
      }
    }
    if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) {
        i++;
        return null;
      }
      for (;;) {
        if (close === '}') {
          ws();
          if (text[i] !== '"') return fail(i >= text.length ? unexpected() : 'Expected a "quoted" key');
          const keyError = string();
          if (keyError) return keyError;
          ws();
          if (text[i] !== ':') return fail(i >= text.length ? unexpected() : "Expected ':' after the key");
          i++;
        }
        const itemError = value(depth + 1);
        if (itemError) return itemError;
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === close) {
          i++;
          return null;
        }
        return fail(i >= text.length ? unexpected() : `Expected ',' or '${close}'`);
      }
    }
    return fail(unexpected());
  };

  const error = value(0);
  if (error) return error;
  ws();
  return i < text.length ? fail('Unexpected text after the JSON value') : null;
}
