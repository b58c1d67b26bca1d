import { z } from 'zod';

/**
 * The public API's parameter schemas, shared by its actions (server/public-api/actions) and the
 * channel modules' API checks (a module's `apiChecks`). GET and form bodies give strings and JSON gives
 * typed values, so text accepts numbers and numbers accept numeric text; anything else (an
 * object, a list, true/false) is refused with the parameter's name rather than coerced.
 */

/** What the caller sent instead, for "must be …, not …". */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' ? 'a number' : typeof value === 'string' ? 'text' : typeof value;
}

/**
 * A number, or its text. Messages say what the value must be; the error names the field
 * (param-errors.ts), as the caller wrote it, before them.
 */
export const numberParam = (message = 'must be a number') =>
  z
    .union([z.number(), z.string()], { error: (issue) => `${message}, not ${kindOf(issue.input)}` })
    .pipe(z.coerce.number({ error: message }));

/** A row's id: a positive whole number, or its text. */
export const idParam = (message = 'must be an id (a positive whole number)') =>
  numberParam(message).pipe(z.number().int({ error: message }).positive({ error: message }));

export const clientIdParam = idParam('must be a client_id (a positive whole number)');

/**
 * A text parameter: a string, or a number taken as its text. `schema` adds the parameter's own
 * checks; they apply to numbers too.
 */
export const textParam = (schema: z.ZodString = z.string()) =>
  z.union([schema, z.number().transform(String).pipe(schema)], {
    error: (issue) => `must be text (a string or a number), not ${kindOf(issue.input)}`,
  });

const splitCommas = (value: unknown) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : value;

/** JSON text parsed; text that is not JSON is left as it is, for the schema to say what was expected. */
const parseJsonText = (value: unknown) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
};

/**
 * `list` (a z.array with the same max, for the reference), refused with too_many_items before
 * its items are checked when longer than `max`: 100,000 bad items make one error, not 100,000.
 */
export const cappedList = <T extends z.ZodType>(
  max: number,
  list: T,
  toList: (value: unknown) => unknown = (value) => value,
) =>
  z.preprocess((value, ctx) => {
    const items = toList(value);
    if (Array.isArray(items) && items.length > max) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'array',
        maximum: max,
        inclusive: true,
        input: items,
        message: `at most ${max} items per call, not ${items.length}: split the list into several calls`,
      });
    }
    return items;
  }, list);

/** A JSON array as text, else comma-separated text as a list. */
const textToList = (value: unknown) => {
  const parsed = parseJsonText(value);
  return Array.isArray(parsed) ? parsed : splitCommas(value);
};

/**
 * A list that integrators send as a JSON array (or its text), a comma-separated string, or
 * repeated form fields.
 */
export const listParam = <T extends z.ZodType>(item: T, max: number) =>
  cappedList(
    max,
    z.array(item, { error: (issue) => `must be a list, not ${kindOf(issue.input)}` }).max(max),
    textToList,
  );

/** A structured parameter that GET and form bodies carry as JSON text. */
export const jsonParam = <T extends z.ZodType>(schema: T) => z.preprocess(parseJsonText, schema);

/** A list of structured items, carried as JSON text by GET and form bodies. */
export const jsonListParam = <T extends z.ZodType>(max: number, list: T) =>
  cappedList(max, list, parseJsonText);

/**
 * A parameter's path as the caller writes it: `clients[0].platform_id`, `variables.city`,
 * `variables["a b"]`.
 */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => {
      if (typeof part === 'number') return `[${part}]`;
      const name = String(part);
      if (!/^[A-Za-z_][\w-]*$/.test(name)) return `[${JSON.stringify(name)}]`;
      return i === 0 ? name : `.${name}`;
    })
    .join('');
}

/**
 * Where the first NUL character in the parsed parameters is (`variables.note`,
 * `clients[0].platform_id`, or `variables["a\u0000"]` for a name), or null. PostgreSQL text
 * cannot hold one, so it is refused up front, whichever parameter carries it.
 */
export function nulBytePath(value: unknown, path: PropertyKey[] = []): string | null {
  if (typeof value === 'string') return value.includes('\0') ? fieldPath(path) : null;
  if (!value || typeof value !== 'object' || value instanceof Date) return null;
  const entries: Iterable<[PropertyKey, unknown]> = Array.isArray(value)
    ? value.entries()
    : Object.entries(value);
  for (const [key, item] of entries) {
    path.push(key);
    const found = typeof key === 'string' && key.includes('\0') ? fieldPath(path) : nulBytePath(item, path);
    path.pop();
    if (found !== null) return found;
  }
  return null;
}

/** The top-level parameters an action's input declares, of every branch of a union. */
export function declaredParams(schema: z.core.$ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodUnion) return [...new Set(schema.options.flatMap(declaredParams))];
  if (schema instanceof z.ZodPipe) return declaredParams(schema.in);
  return [];
}

const isEmptyValue = (value: unknown) =>
  value === '' ||
  value === null ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && value !== null && Object.keys(value).length === 0);

/**
 * An empty value ('', null, [] or {}) of a declared parameter means "not given": client
 * libraries send every parameter, the unused ones empty. A required one is then reported
 * missing. Only declared names: an extra parameter of a callback is a variable to save, where
 * '' is a value. Nested values keep their meaning (a null variable clears it). Returns the
 * names dropped.
 */
export function dropEmptyParams(params: Record<string, unknown>, names: readonly string[]): Set<string> {
  const dropped = new Set<string>();
  for (const name of names) {
    if (!isEmptyValue(params[name])) continue;
    delete params[name];
    dropped.add(name);
  }
  return dropped;
}
