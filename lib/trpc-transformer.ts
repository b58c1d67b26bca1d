import superjson from 'superjson';

type SuperJSONResult = ReturnType<typeof superjson.serialize>;
type SuperJSONValue = Parameters<typeof superjson.serialize>[0];

/**
 * tRPC's transformer: superjson's wire format, without superjson's walk when the value is plain
 * JSON already. superjson records a path for every value it visits, about 0.5 s for a
 * 5,000-block bot schema on a loaded server (and again in the browser for each autosave),
 * where this check takes a few milliseconds. Anything JSON cannot carry as is (undefined, Date,
 * Map, bigint, NaN, -0, a class instance, an object met twice) goes through superjson, so both
 * ends read exactly what superjson would give them.
 */
export const transformer = {
  serialize(value: unknown): SuperJSONResult {
    return isPlainJson(value, new Set())
      ? { json: value as SuperJSONResult['json'] }
      : superjson.serialize(value as SuperJSONValue);
  },
  deserialize(payload: SuperJSONResult): unknown {
    // Without annotations there is nothing to restore; the payload was just parsed, so no copy is needed.
    return payload.meta ? superjson.deserialize(payload) : payload.json;
  },
};

function isPlainJson(value: unknown, seen: Set<object>): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      // superjson keeps shared references (and cycles): leave those to it.
      if (seen.has(value)) return false;
      seen.add(value);
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++)
          if (!(i in value) || !isPlainJson(value[i], seen)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key], seen)) return false;
      return true;
    }
    default:
      return false;
  }
}
