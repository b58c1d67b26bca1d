import { type HighlightKind, highlight } from '@/lib/formula/editor';

/** Token types in the order Monaco's legend lists them; a token's type is its index here. */
export const TOKEN_TYPES: readonly HighlightKind[] = [
  'number',
  'string',
  'keyword',
  'function',
  'variable',
  'operator',
  'comment',
  'invalid',
];

/**
 * The formula's highlighting in the encoding of Monaco's semantic tokens: five numbers per token
 * (line delta, start delta, length, type, modifiers), one token per line of a multi-line comment.
 * Highlighting the whole text at once keeps `/* ... *\/` across lines right, which a line-by-line
 * tokenizer would need its own state for.
 */
export function semanticTokenData(source: string): Uint32Array {
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1);
  const data: number[] = [];
  let line = 0;
  let prevLine = 0;
  let prevChar = 0;
  for (const token of highlight(source)) {
    const type = TOKEN_TYPES.indexOf(token.kind);
    let start = token.offset;
    const end = token.offset + token.length;
    while (start < end) {
      while (line + 1 < lineStarts.length && lineStarts[line + 1] <= start) line++;
      const lineEnd = line + 1 < lineStarts.length ? lineStarts[line + 1] - 1 : source.length;
      const pieceEnd = Math.min(end, lineEnd);
      const char = start - lineStarts[line];
      if (pieceEnd > start) {
        data.push(line - prevLine, line === prevLine ? char - prevChar : char, pieceEnd - start, type, 0);
        prevLine = line;
        prevChar = char;
      }
      start = pieceEnd + 1;
    }
  }
  return Uint32Array.from(data);
}
