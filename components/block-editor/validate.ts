import {
  type Arrow,
  type Block,
  type BlockRequest,
  BOT_SCHEMA_FORMAT,
  blockSchema,
  botSchemaSchema,
  type Condition,
  formatPath,
} from '@/lib/schema';

/**
 * Every edit in the block and arrow editors is checked here before it enters the schema: the
 * zod schemas of lib/schema, plus what they keep as text but the editor can check early (a
 * regex that does not compile, JSON that does not parse, a date that is not `dd.mm.yyyy hh:mm`).
 * Errors are keyed by field path (`buttons[0].text`, `request.headers`).
 */
export type FieldErrors = Record<string, string>;
export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** Regex alternatives that do not compile, as one message (empty when all compile). */
export function regexIssue(condition: Pick<Condition, 'alternatives' | 'match'> | undefined): string | null {
  if (condition?.match !== 'regex') return null;
  for (const alternative of condition.alternatives.split(';')) {
    const source = alternative.trim();
    if (!source) continue;
    try {
      new RegExp(source);
    } catch (error) {
      return `"${source}": ${(error as Error).message}`;
    }
  }
  return null;
}

function jsonIssue(text: string, wantObject: boolean): string | null {
  if (!text.trim()) return null;
  try {
    const value = JSON.parse(text);
    if (wantObject && (typeof value !== 'object' || value === null || Array.isArray(value)))
      return 'must be a JSON object, e.g. {"Authorization": "Bearer #{token}"}';
    return null;
  } catch (error) {
    return `not valid JSON: ${(error as Error).message}`;
  }
}

/** JSON errors of a block request's headers and parameters, keyed `headers` / `params`. */
export function requestJsonIssues(request: BlockRequest | undefined): FieldErrors {
  const errors: FieldErrors = {};
  if (!request) return errors;
  const headers = jsonIssue(request.headers, true);
  if (headers) errors.headers = headers;
  // With the format check off, `#{n}` may stand unquoted, so the text need not parse.
  const params = request.checkParamsFormat ? jsonIssue(request.params, false) : null;
  if (params) errors.params = params;
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
  const regex = regexIssue(draft.trigger);
  if (regex && draft.trigger) errors['trigger.alternatives'] ??= regex;
  addPrefixed(errors, 'request.', requestJsonIssues(draft.request));
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
  if (draft.timer && 'at' in draft.timer) {
    const at = timerAtIssue(draft.timer.at);
    if (at) errors['timer.at'] ??= at;
  }
  addPrefixed(errors, 'request.', requestJsonIssues(draft.request));
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
