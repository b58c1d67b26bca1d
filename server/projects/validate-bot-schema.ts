// The block and arrow editors' own checks (pure code with no React): the server refuses exactly
// what the builder refuses, whoever sends the schema.

import { getDiagnostics } from '@/lib/formula';
import { type BotSchema, describeFieldErrors, type FieldError, parseBotSchema } from '@/lib/schema';
import { validateArrow, validateBlock } from '@/lib/schema/validate';
import { findPlaceholders } from '@/lib/template';
import { invalid } from '@/server/errors';

/** Text fields that are not `#{...}` templates: formulas and match settings. */
const NOT_TEMPLATES = new Set(['formula', 'expression', 'alternatives', 'ignore', 'name']);

/** Every `#{expression}` that does not parse, in any text the engine renders, keyed by its path. */
function templateErrors(value: unknown, path: string, out: Record<string, string>): void {
  if (typeof value === 'string') {
    if (!value.includes('#{')) return;
    for (const p of findPlaceholders(value)) {
      if (p.kind !== 'expression' || !p.expression) continue;
      const [error] = getDiagnostics(p.expression, 'expression').filter((d) => d.severity === 'error');
      if (error) {
        out[path] ??= `#{${p.expression}}: line ${error.line}, column ${error.column}: ${error.message}`;
        return;
      }
    }
    return;
  }
  if (!value || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value)) {
    if (NOT_TEMPLATES.has(key)) continue;
    templateErrors(item, Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key, out);
  }
}

function collect(owner: string, errors: Record<string, string>, out: FieldError[]) {
  for (const [field, message] of Object.entries(errors)) out.push({ field: `${owner}, ${field}`, message });
}

/**
 * What the builder would not let a designer save, in a schema that passed the zod schema:
 * formulas and comparison expressions that do not parse, `#{...}` expressions that do not parse,
 * regex conditions that do not compile, request JSON, URLs and stored values, timer dates.
 * Each error names its block or arrow and the field.
 */
export function botSchemaContentErrors(schema: BotSchema): FieldError[] {
  const out: FieldError[] = [];
  for (const block of schema.blocks) {
    const checked = validateBlock(block);
    const errors = checked.ok ? {} : { ...checked.errors };
    templateErrors(block, '', errors);
    collect(`block ${block.id}`, errors, out);
  }
  for (const arrow of schema.arrows) {
    const checked = validateArrow(arrow);
    const errors = checked.ok ? {} : { ...checked.errors };
    templateErrors(arrow, '', errors);
    collect(`arrow ${arrow.id}`, errors, out);
  }
  return out;
}

/**
 * Refuses a schema the builder would refuse (a BAD_REQUEST through tRPC), with `lead` as the
 * first line; a schema the zod schema refuses is left to saveBotSchema, which names its fields.
 */
export function refuseBrokenContent(input: unknown, lead: string): void {
  const parsed = parseBotSchema(input);
  if (!parsed.ok) return;
  const errors = botSchemaContentErrors(parsed.value);
  if (errors.length) throw invalid(`${lead}:\n${describeFieldErrors(errors)}`);
}
