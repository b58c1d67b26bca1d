import { conditionRegexError } from '@/lib/condition-regex';
import { getDiagnostics, type SourceKind } from '@/lib/formula';
import {
  type Arrow,
  type Block,
  type BlockRequest,
  BOT_SCHEMA_FORMAT,
  blockSchema,
  botSchemaSchema,
  type Condition,
  callbackDataIssues,
  formatPath,
} from '@/lib/schema';
import { checkJsonFormat, checkJsonTemplate, parseStoredValues } from '@/lib/template';

/**
 * Every edit in the block and arrow editors is checked here before it enters the schema: the
 * zod schemas of lib/schema, plus what they keep as text but the editor can check early (a
 * formula or comparison expression that does not parse, a regex that does not compile, JSON that
 * does not parse, stored values that are not `path->variable`, a date that is not `dd.mm.yyyy hh:mm`).
 * Errors are keyed by field path (`buttons[0].text`, `request.headers`).
 */
export type FieldErrors = Record<string, string>;
export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/**
 * A regex condition's error: the whole text is one pattern, compiled as the engine compiles it,
 * so the builder refuses exactly what would never match.
 */
export function regexIssue(condition: Pick<Condition, 'alternatives' | 'match'> | undefined): string | null {
  if (condition?.match !== 'regex') return null;
  const source = condition.alternatives.trim();
  return source ? conditionRegexError(source) : null;
}

const at = (e: { line: number; column: number; message: string }) =>
  `line ${e.line}, column ${e.column}: ${e.message}`;

/** The first error of a formula or comparison expression (and how many more), as its field shows it. */
export function formulaIssue(source: string, kind: SourceKind = 'formula'): string | null {
  const errors = getDiagnostics(source, kind).filter((d) => d.severity === 'error');
  if (!errors.length) return null;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${at(errors[0])}${more}`;
}

/**
 * JSON errors of a block request's headers and parameters, keyed `headers` / `params`, with
 * their position. `#{...}` may stand anywhere in headers; in parameters only inside quotes,
 * unless the format check is off (then `#{n}` may stand bare, to be sent as a number).
 */
export function requestJsonIssues(request: BlockRequest | undefined): FieldErrors {
  const errors: FieldErrors = {};
  if (!request) return errors;
  if (request.headers.trim()) {
    const headers = checkJsonTemplate(request.headers);
    if (headers) errors.headers = `not valid JSON: ${at(headers)}`;
    else if (!request.headers.trim().startsWith('{'))
      errors.headers = 'must be a JSON object, e.g. {"Authorization": "Bearer #{token}"}';
  }
  const params = request.checkParamsFormat && request.params.trim() ? checkJsonFormat(request.params) : null;
  if (params) errors.params = `not valid JSON: ${at(params)}`;
  return errors;
}

/** The first bad phrase of the stored values, with its number and position. */
export function storedValuesIssue(request: BlockRequest | undefined): string | null {
  const text = request?.storedValues ?? '';
  const [first] = parseStoredValues(text).errors;
  if (!first) return null;
  return `phrase ${first.phraseIndex + 1}, at character ${first.start + 1}: ${first.message}`;
}

/** A request URL the safe client could not call: it needs http(s), or a variable giving the base. */
export function requestUrlIssue(url: string): string | null {
  const text = url.trim();
  if (!text || /^(https?:\/\/|#\{)/i.test(text)) return null;
  return 'start the URL with http:// or https:// (or a variable holding it, like #{base_url}/orders)';
}

function requestIssues(request: BlockRequest | undefined): FieldErrors {
  const errors = requestJsonIssues(request);
  const url = request && requestUrlIssue(request.url);
  if (url) errors.url = url;
  const stored = storedValuesIssue(request);
  if (stored) errors.storedValues = stored;
  return errors;
}

const DATE_TIME = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/;

export function timerAtIssue(at: string): string | null {
  if (at.includes('#{') || DATE_TIME.test(at.trim())) return null;
  return 'use dd.mm.yyyy hh:mm (variables like #{date} are allowed)';
}

function addPrefixed(errors: FieldErrors, prefix: string, more: FieldErrors) {
  for (const [key, message] of Object.entries(more)) errors[`${prefix}${key}`] ??= message;
}

export function validateBlock(draft: Block): Validated<Block> {
  const errors: FieldErrors = {};
  const parsed = blockSchema.safeParse(draft);
  if (!parsed.success)
    for (const issue of parsed.error.issues) errors[formatPath(issue.path)] ??= issue.message;
  for (const { path, message } of callbackDataIssues(draft.buttons))
    errors[formatPath(['buttons', ...path])] ??= message;
  const regex = regexIssue(draft.trigger);
  if (regex && draft.trigger) errors['trigger.alternatives'] ??= regex;
  const expression = draft.trigger && formulaIssue(draft.trigger.expression, 'expression');
  if (expression) errors['trigger.expression'] ??= expression;
  const formula = formulaIssue(draft.formula);
  if (formula) errors.formula ??= formula;
  addPrefixed(errors, 'request.', requestIssues(draft.request));
  if (Object.keys(errors).length || !parsed.success) return { ok: false, errors };
  return { ok: true, value: parsed.data };
}

/** Checks an arrow with the bot schema's own rules (a timer arrow needs a timer, variable names). */
export function validateArrow(draft: Arrow): Validated<Arrow> {
  const errors: FieldErrors = {};
  const ids = [...new Set([draft.from, draft.to])];
  const parsed = botSchemaSchema.safeParse({
    format: BOT_SCHEMA_FORMAT,
    blocks: ids.map((id) => ({ id, kind: 'state' })),
    arrows: [draft],
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [, , ...path] = issue.path;
      errors[formatPath(path)] ??= issue.message;
    }
  }
  const regex = regexIssue(draft.condition);
  if (regex && draft.condition) errors['condition.alternatives'] ??= regex;
  const expression = draft.condition && formulaIssue(draft.condition.expression, 'expression');
  if (expression) errors['condition.expression'] ??= expression;
  if (draft.timer && 'at' in draft.timer) {
    const at = timerAtIssue(draft.timer.at);
    if (at) errors['timer.at'] ??= at;
  }
  addPrefixed(errors, 'request.', requestIssues(draft.request));
  if (Object.keys(errors).length || !parsed.success) return { ok: false, errors };
  return { ok: true, value: parsed.data.arrows[0] };
}

/** The errors under one prefix, with the prefix removed (`request.url` → `url`). */
export function errorsUnder(errors: FieldErrors, prefix: string): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, message] of Object.entries(errors))
    if (key.startsWith(prefix)) out[key.slice(prefix.length)] = message;
  return out;
}
