import { catalogue, type Value } from '@/lib/formula';

/** Parsed JSON → formula values (objects become dicts). */
export function jsonToValue(json: unknown): Value {
  if (json === null || json === undefined) return null;
  if (Array.isArray(json)) return json.map(jsonToValue);
  if (typeof json === 'object') {
    return new Map(Object.entries(json as Record<string, unknown>).map(([k, v]) => [k, jsonToValue(v)]));
  }
  return json as Value;
}

/** Formula values → JSON-ready data (dicts become plain objects without prototypes). */
export function valueToJson(value: Value): unknown {
  if (value instanceof Map) {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of value) out[k] = valueToJson(v);
    return out;
  }
  if (Array.isArray(value)) return value.map(valueToJson);
  return value;
}

/** An optional argument is absent when missing or None. */
export const given = (value: Value | undefined): value is Exclude<Value, null> =>
  value !== undefined && value !== null;

/** Which parameters of each in-flow function are optional, by position, from the catalogue. */
const optionalParams = new Map(
  catalogue.filter((e) => e.host).map((e) => [e.name, e.params.map((p) => !p.required)]),
);

/**
 * An in-flow function's arguments as the functions read them: an empty text in an optional
 * parameter means "not given", like None (`message(id, 'hi', '', 25)` has no message_id, and
 * `tg_get_command('', 'all_private_chats')` skips the language). Required ones are kept as given.
 */
export function inFlowArgs(name: string, args: Value[]): Value[] {
  const optional = optionalParams.get(name);
  if (!optional) return args;
  return args.map((arg, i) => (arg === '' && optional[i] ? null : arg));
}

export function asString(value: Value | undefined, name: string): string {
  if (!given(value)) throw new Error(`${name} is required`);
  if (value instanceof Map || Array.isArray(value)) throw new Error(`${name} must be a text or a number`);
  return String(value);
}

export function asInt(value: Value | undefined, name: string): number {
  const n = Number(asString(value, name));
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be a whole number, got ${String(value)}`);
  return n;
}

/** A dict argument, also accepted as JSON text (designers often build it as a string). */
export function asRecord(value: Value | undefined, name: string): Record<string, unknown> | undefined {
  if (!given(value)) return undefined;
  if (value instanceof Map) return valueToJson(value) as Record<string, unknown>;
  if (typeof value === 'string') {
    try {
      const parsed = JSON.parse(value);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
    } catch {
      // fall through to the error
    }
  }
  throw new Error(`${name} must be a dict, e.g. {'key': 'value'}`);
}
