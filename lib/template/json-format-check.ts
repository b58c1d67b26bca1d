import { findJsonSyntaxError } from './json-check';
import { lineAndColumn } from './json-template';
import { maskPlaceholders, type PlaceholderPart, parseTemplate } from './parse';

export interface JsonFormatError {
  message: string;
  /** Offset in the text, and its 1-based line and column. */
  offset: number;
  line: number;
  column: number;
}

/**
 * The request form's "check the JSON format" of JSON parameters (platform-interface, block
 * requests): the text must be JSON with every `#{...}` inside a JSON string, so substituted
 * values are sent as strings. A bare `#{n}` (sent as a number) is what turning the check off is
 * for; checkJsonTemplate is the lenient check that allows it.
 */
export function checkJsonFormat(text: string): JsonFormatError | null {
  // Placeholders become letters: harmless inside a string, an error where a bare value stands.
  const syntax = findJsonSyntaxError(maskPlaceholders(text, 'x'));
  if (!syntax) return null;
  const bare = parseTemplate(text).parts.find(
    (p): p is PlaceholderPart =>
      p.kind === 'placeholder' && p.start <= syntax.offset && syntax.offset < p.end,
  );
  const offset = bare ? bare.start : syntax.offset;
  const message = bare
    ? `${text.slice(bare.start, bare.end)} stands outside quotes: write it in quotes to send it as text, or turn off the format check to send a number`
    : syntax.message;
  return { message, offset, ...lineAndColumn(text, offset) };
}
