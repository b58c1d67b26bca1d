import {
  advanceJsonState,
  cutText,
  encodeJsonBareValue,
  encodeJsonStringContent,
  encodeUrlLiteral,
  encodeUrlPrefix,
  encodeUrlValue,
  type JsonStringState,
  stripLineBreaks,
} from './encode';
import { MAX_EXPRESSIONS, MAX_NESTING_DEPTH, MAX_VALUE_LENGTH } from './limits';
import { classifyBody, type PlaceholderPart, parseTemplate, type TemplatePart } from './parse';

/** What a template can read. Injected so this module stays free of the engine and the formula language. */
export interface TemplateContext {
  /** The variable's value as a display string, or undefined when no such variable exists. */
  lookup(name: string): string | undefined;
  /** Evaluates a formula expression (`2+2`, `random(1,6)`) to a display string; throws on error. */
  evaluate?(expression: string): string;
}

/**
 * How substituted values are written (the template's own text is never changed, except spaces in `url`):
 * - `text`: as is (messages, buttons, timer dates);
 * - `url`: URL-encoded; a placeholder that begins the URL is taken as a base URL (see README);
 * - `json`: escaped inside JSON strings, one JSON value when written without quotes;
 * - `header`: CR, LF and NUL removed.
 */
export type TemplateMode = 'text' | 'url' | 'json' | 'header';

export interface RenderOptions {
  mode?: TemplateMode;
  /** Also remove CR/LF/NUL from values in `json` mode: for the Request header JSON. */
  stripLineBreaks?: boolean;
  /** Output cap in characters; the rest is cut with a warning. */
  maxLength?: number;
  maxDepth?: number;
  maxExpressions?: number;
}

export interface TemplateWarning {
  message: string;
  /** Offset in the template, usually the `#` of the placeholder concerned. */
  offset: number;
}

export interface RenderResult {
  text: string;
  warnings: TemplateWarning[];
  /** The output reached `maxLength` and was cut. */
  truncated: boolean;
}

/** A piece of output and where it came from, so JSON errors can point into the template. */
export interface OutputSegment {
  outStart: number;
  length: number;
  srcStart: number;
  /** True when the piece is a substituted value (offsets inside it do not map 1:1). */
  value: boolean;
}

export interface RenderResultWithMap extends RenderResult {
  segments: OutputSegment[];
}

const quote = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return 'unknown error';
  }
}

/** Coerces what a context returns (plain JavaScript callers may return numbers); inside the caller's try. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : String(value);
}

/** Renders `#{...}` placeholders. Never throws: problems become warnings and render as empty text. */
export function renderTemplate(
  text: string,
  ctx: TemplateContext,
  options: RenderOptions = {},
): RenderResult {
  const { segments: _, ...result } = renderTemplateWithMap(text, ctx, options);
  return result;
}

export function renderTemplateWithMap(
  text: string,
  ctx: TemplateContext,
  options: RenderOptions = {},
): RenderResultWithMap {
  const mode = options.mode ?? 'text';
  const maxLength = options.maxLength ?? MAX_VALUE_LENGTH;
  const maxExpressions = options.maxExpressions ?? MAX_EXPRESSIONS;
  const strip = mode === 'header' || (mode === 'json' && options.stripLineBreaks === true);
  const parsed = parseTemplate(text, options.maxDepth ?? MAX_NESTING_DEPTH);
  const warnings: TemplateWarning[] = [...parsed.issues];
  let expressions = 0;

  const lookup = (name: string, offset: number): string => {
    try {
      return asText(ctx.lookup(name));
    } catch (error) {
      warnings.push({ message: `Reading "${quote(name)}" failed: ${errorText(error)}`, offset });
      return '';
    }
  };

  const evaluate = (expression: string, offset: number): string => {
    if (!ctx.evaluate) {
      warnings.push({
        message: `"${quote(expression)}" is an expression, and expressions are not available here`,
        offset,
      });
      return '';
    }
    if (++expressions > maxExpressions) {
      if (expressions === maxExpressions + 1) {
        warnings.push({ message: `More than ${maxExpressions} expressions; the rest render empty`, offset });
      }
      return '';
    }
    try {
      return asText(ctx.evaluate(expression));
    } catch (error) {
      warnings.push({ message: `Expression "${quote(expression)}" failed: ${errorText(error)}`, offset });
      return '';
    }
  };

  // Inner placeholders are resolved first and spliced as raw text into the outer name or expression;
  // the resulting values are data and are never scanned for `#{` again.
  const resolve = (node: PlaceholderPart): string => {
    let body = '';
    for (const part of node.parts) {
      body += part.kind === 'literal' ? part.text : resolve(part);
      if (body.length > maxLength) {
        warnings.push({
          message: `Placeholder longer than ${maxLength} characters; cut`,
          offset: node.start,
        });
        body = body.slice(0, maxLength);
        break;
      }
    }
    const what = classifyBody(body);
    let value: string;
    if (what.kind === 'variable') value = lookup(what.name, node.start);
    else if (what.expression === '') {
      warnings.push({ message: "Empty placeholder '#{}' renders as nothing", offset: node.start });
      value = '';
    } else value = evaluate(what.expression, node.start);
    return value.length > maxLength ? value.slice(0, maxLength) : value;
  };

  const out: string[] = [];
  const segments: OutputSegment[] = [];
  let length = 0;
  let truncated = false;
  const emit = (piece: string, srcStart: number, value: boolean) => {
    if (truncated || piece === '') return;
    let chunk = piece;
    if (length + chunk.length > maxLength) {
      chunk = cutText(chunk, maxLength - length, mode === 'url');
      truncated = true;
      warnings.push({ message: `Result longer than ${maxLength} characters; cut`, offset: srcStart });
    }
    segments.push({ outStart: length, length: chunk.length, srcStart, value });
    out.push(chunk);
    length += chunk.length;
  };

  const json: JsonStringState = { inString: false, escaped: false };
  const encode = (raw: string, node: PlaceholderPart): string => {
    const value = strip ? stripLineBreaks(raw) : raw;
    switch (mode) {
      case 'url':
        return node.start === 0 ? encodeUrlPrefix(value) : encodeUrlValue(value);
      case 'json':
        return json.inString ? encodeJsonStringContent(value) : encodeJsonBareValue(value);
      default:
        return value;
    }
  };

  const top: TemplatePart[] = parsed.parts;
  for (const part of top) {
    if (truncated) break;
    if (part.kind === 'literal') {
      if (mode === 'json') advanceJsonState(part.text, json);
      emit(mode === 'url' ? encodeUrlLiteral(part.text) : part.text, part.start, false);
    } else {
      emit(encode(resolve(part), part), part.start, true);
      json.escaped = false;
    }
  }

  warnings.sort((a, b) => a.offset - b.offset);
  return { text: out.join(''), warnings, truncated, segments };
}
