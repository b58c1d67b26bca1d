import type { z } from 'zod';
import { type BotSchema, botSchemaSchema } from './bot-schema';

export interface FieldError {
  /** The field, e.g. `blocks[3].kind`; empty for the document itself. */
  field: string;
  message: string;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** `['blocks', 3, 'kind']` → `blocks[3].kind`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    return out ? `${out}.${String(key)}` : String(key);
  }, '');
}

export function zodFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ field: formatPath(issue.path), message: issue.message }));
}

/** One line per error, each naming its field: what the CLI and the builder show. */
export function describeFieldErrors(errors: FieldError[]): string {
  return errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('\n');
}

export function parseBotSchema(value: unknown): ParseResult<BotSchema> {
  const result = botSchemaSchema.safeParse(value);
  if (result.success) return { ok: true, value: normaliseOrder(result.data) };
  return { ok: false, errors: zodFieldErrors(result.error) };
}

/** Parses a bot schema file's text; JSON syntax errors are reported like field errors. */
export function parseBotSchemaJson(text: string): ParseResult<BotSchema> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      errors: [{ field: '', message: `the file is not valid JSON: ${(error as Error).message}` }],
    };
  }
  return parseBotSchema(value);
}

/** The canonical text of a schema: blocks, arrows and tests by id, defaults filled in, two-space indent. */
export function serializeBotSchema(schema: BotSchema): string {
  return `${JSON.stringify(normaliseOrder(schema), null, 2)}\n`;
}

function normaliseOrder(schema: BotSchema): BotSchema {
  return {
    format: schema.format,
    blocks: [...schema.blocks].sort((a, b) => a.id - b.id),
    arrows: [...schema.arrows].sort((a, b) => a.id - b.id),
    ...(schema.tests && { tests: [...schema.tests].sort((a, b) => a.id - b.id) }),
  };
}
