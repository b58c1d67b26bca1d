import { findJsonSyntaxError } from './json-check';
import {
  type OutputSegment,
  renderTemplateWithMap,
  type TemplateContext,
  type TemplateWarning,
} from './render';

export interface JsonTemplateError {
  message: string;
  /** Offset in the template (for an error inside a substituted value: the placeholder's `#`). */
  offset: number;
  /** 1-based line and column of `offset` in the template. */
  line: number;
  column: number;
  /** Offset in the rendered text, where the parser stopped. */
  renderedOffset: number;
}

export type JsonTemplateResult =
  | { ok: true; value: unknown; text: string; warnings: TemplateWarning[] }
  | { ok: false; error: JsonTemplateError; text: string; warnings: TemplateWarning[] };

export interface JsonTemplateOptions {
  /** The Request header field: also remove CR/LF/NUL from values (header injection). */
  forHeaders?: boolean;
  maxLength?: number;
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function toTemplateOffset(segments: OutputSegment[], rendered: number, templateLength: number) {
  for (const seg of segments) {
    if (rendered < seg.outStart + seg.length) {
      return {
        offset: seg.value ? seg.srcStart : seg.srcStart + (rendered - seg.outStart),
        inValue: seg.value,
      };
    }
  }
  return { offset: templateLength, inValue: false };
}

/** Renders a JSON template (`json` mode) and checks that the result is JSON. */
export function renderJsonTemplate(
  text: string,
  ctx: TemplateContext,
  options: JsonTemplateOptions = {},
): JsonTemplateResult {
  const rendered = renderTemplateWithMap(text, ctx, {
    mode: 'json',
    stripLineBreaks: options.forHeaders,
    maxLength: options.maxLength,
  });
  const syntax = findJsonSyntaxError(rendered.text);
  if (syntax) {
    const at = toTemplateOffset(rendered.segments, syntax.offset, text.length);
    let message = at.inValue ? `In the value substituted here: ${syntax.message}` : syntax.message;
    if (rendered.truncated) message += ' (the result was cut at the length limit)';
    return {
      ok: false,
      error: { message, offset: at.offset, ...lineAndColumn(text, at.offset), renderedOffset: syntax.offset },
      text: rendered.text,
      warnings: rendered.warnings,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(rendered.text);
  } catch (error) {
    // Not expected: the check above is strict JSON. Kept so this function never throws.
    const message = error instanceof Error ? error.message : 'Invalid JSON';
    const error_ = { message, offset: 0, line: 1, column: 1, renderedOffset: 0 };
    return { ok: false, error: error_, text: rendered.text, warnings: rendered.warnings };
  }
  return { ok: true, value, text: rendered.text, warnings: rendered.warnings };
}

const neutral: TemplateContext = { lookup: () => '0', evaluate: () => '0' };

/**
 * The builder's format check for a JSON template, before any variable exists: each placeholder stands
 * for `0`, so `"#{name}"` and a bare `#{count}` both pass while a broken structure is reported with its
 * position in the template. Returns null when the template is fine.
 */
export function checkJsonTemplate(text: string): JsonTemplateError | null {
  const result = renderJsonTemplate(text, neutral, { maxLength: Number.MAX_SAFE_INTEGER });
  return result.ok ? null : result.error;
}
