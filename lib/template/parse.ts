import { isVariableName, MAX_NESTING_DEPTH } from './limits';

/** Text copied from the template; `start` is its offset there. */
export interface LiteralPart {
  kind: 'literal';
  text: string;
  start: number;
}

/** A balanced `#{...}`: `start` is the offset of `#`, `end` the offset after `}`. */
export interface PlaceholderPart {
  kind: 'placeholder';
  start: number;
  end: number;
  parts: TemplatePart[];
}

export type TemplatePart = LiteralPart | PlaceholderPart;

export interface TemplateIssue {
  message: string;
  offset: number;
}

export interface ParsedTemplate {
  parts: TemplatePart[];
  issues: TemplateIssue[];
}

interface Frame {
  start: number;
  parts: TemplatePart[];
  /** Bare `{` seen inside the body (e.g. a dict literal), so the matching `}` does not close us. */
  braces: number;
  /** Open quote inside the body, so `'}'` in an expression does not close us. */
  quote: string;
}

/**
 * Splits a template into literals and placeholders in one linear pass with a stack, so a text full
 * of unbalanced `#{` costs O(n). An unclosed `#{` becomes literal text and anything balanced inside
 * it is still a placeholder.
 */
export function parseTemplate(text: string, maxDepth = MAX_NESTING_DEPTH): ParsedTemplate {
  const issues: TemplateIssue[] = [];
  const stack: Frame[] = [{ start: -1, parts: [], braces: 0, quote: '' }];
  let literalStart = 0;
  let tooDeepReported = false;

  const flush = (frame: Frame, until: number) => {
    if (until > literalStart) {
      frame.parts.push({ kind: 'literal', text: text.slice(literalStart, until), start: literalStart });
    }
  };

  let i = 0;
  while (i < text.length) {
    const top = stack[stack.length - 1];
    const ch = text[i];
    if (ch === '#' && text[i + 1] === '{') {
      if (stack.length - 1 < maxDepth) {
        flush(top, i);
        stack.push({ start: i, parts: [], braces: 0, quote: '' });
        i += 2;
        literalStart = i;
        continue;
      }
      // Too deep: keep this `#{` as text but still pair it with its `}`.
      if (!tooDeepReported) {
        issues.push({
          message: `Placeholders nested deeper than ${maxDepth} levels are kept as text`,
          offset: i,
        });
        tooDeepReported = true;
      }
      top.braces++;
      i += 2;
      continue;
    }
    if (stack.length === 1) {
      i++;
      continue;
    }
    if (top.quote) {
      if (ch === '\\') i++;
      else if (ch === top.quote) top.quote = '';
    } else if (ch === "'" || ch === '"') {
      top.quote = ch;
    } else if (ch === '{') {
      top.braces++;
    } else if (ch === '}') {
      if (top.braces > 0) {
        top.braces--;
      } else {
        flush(top, i);
        stack.pop();
        stack[stack.length - 1].parts.push({
          kind: 'placeholder',
          start: top.start,
          end: i + 1,
          parts: top.parts,
        });
        literalStart = i + 1;
      }
    }
    i++;
  }
  flush(stack[stack.length - 1], text.length);

  // Unclosed frames dissolve into their parent as text; at most maxDepth of them, so this is cheap.
  while (stack.length > 1) {
    const frame = stack.pop()!;
    issues.push({ message: "'#{' has no closing '}' and is kept as text", offset: frame.start });
    const parent = stack[stack.length - 1].parts;
    parent.push({ kind: 'literal', text: '#{', start: frame.start });
    for (const part of frame.parts) parent.push(part); // no spread: could be 100k+ arguments
  }
  issues.sort((a, b) => a.offset - b.offset);
  return { parts: stack[0].parts, issues };
}

/**
 * Copy of `text` with every top-level `#{...}` overwritten by `fill`, offsets unchanged: lets a
 * syntax (stored-value separators, JSON) be checked around placeholders without seeing inside them.
 */
export function maskPlaceholders(text: string, fill = '\0'): string {
  const { parts } = parseTemplate(text);
  let masked = '';
  let at = 0;
  for (const part of parts) {
    if (part.kind !== 'placeholder') continue;
    masked += text.slice(at, part.start) + fill.repeat(part.end - part.start);
    at = part.end;
  }
  return masked + text.slice(at);
}

export type PlaceholderKind = 'variable' | 'expression' | 'dynamic';

export interface PlaceholderInfo {
  /** `variable`: a plain name; `expression`: goes to the formula evaluator; `dynamic`: contains nested placeholders, so the name or expression is only known at run time. */
  kind: PlaceholderKind;
  /** The text between `#{` and `}`, as written (nested placeholders included). */
  source: string;
  /** For `variable`: the trimmed name. */
  name?: string;
  /** For `expression`: the trimmed expression. */
  expression?: string;
  start: number;
  end: number;
  /** 0 for a top-level placeholder, 1 inside another one, ... */
  depth: number;
}

/** Classifies a placeholder whose body has no nested placeholders. */
export function classifyBody(
  body: string,
): { kind: 'variable'; name: string } | { kind: 'expression'; expression: string } {
  const trimmed = body.trim();
  return isVariableName(trimmed)
    ? { kind: 'variable', name: trimmed }
    : { kind: 'expression', expression: trimmed };
}

/** Every balanced placeholder, nested ones included, in order of `start`: for highlighting and "variables used". */
export function findPlaceholders(text: string): PlaceholderInfo[] {
  const found: PlaceholderInfo[] = [];
  const walk = (parts: TemplatePart[], depth: number) => {
    for (const part of parts) {
      if (part.kind !== 'placeholder') continue;
      const source = text.slice(part.start + 2, part.end - 1);
      if (part.parts.some((p) => p.kind === 'placeholder')) {
        found.push({ kind: 'dynamic', source, start: part.start, end: part.end, depth });
      } else {
        found.push({ source, start: part.start, end: part.end, depth, ...classifyBody(source) });
      }
      walk(part.parts, depth + 1);
    }
  };
  walk(parseTemplate(text).parts, 0);
  return found.sort((a, b) => a.start - b.start);
}
