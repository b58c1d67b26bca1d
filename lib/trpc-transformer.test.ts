import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { transformer } from './trpc-transformer';

/** Through the wire and back, as tRPC does: serialize, JSON text, parse, deserialize. */
const roundTrip = (value: unknown) =>
  transformer.deserialize(JSON.parse(JSON.stringify(transformer.serialize(value))));

describe('tRPC transformer', () => {
  it('sends plain JSON as superjson would, without annotations', () => {
    const value = {
      schema: { blocks: [{ id: 1, name: 'a', position: { x: 0, y: -2.5 } }], arrows: [] },
      ok: true,
      n: null,
    };
    expect(transformer.serialize(value)).toEqual(superjson.serialize(value));
    expect(transformer.serialize(value).meta).toBeUndefined();
    expect(roundTrip(value)).toEqual(value);
  });

  it.each([
    ['undefined in an object', { a: undefined, b: 1 }],
    ['a date', { at: new Date('2026-01-02T03:04:05Z') }],
    ['a map and a set', { m: new Map([['k', 1]]), s: new Set([1, 2]) }],
    ['a bigint', { big: 12345678901234567890n }],
    ['NaN, Infinity and -0', [Number.NaN, Number.POSITIVE_INFINITY, -0]],
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
    ['a sparse array', [1, , 3]],
    ['undefined at the top', undefined],
  ])('leaves %s to superjson, which restores it', (_name, value) => {
    expect(transformer.serialize(value)).toEqual(superjson.serialize(value as never));
    expect(roundTrip(value)).toEqual(
      superjson.deserialize(JSON.parse(JSON.stringify(superjson.serialize(value as never)))),
    );
  });

  it('keeps an object shared by two paths shared, as superjson does', () => {
    const shared = { x: 1 };
    const back = roundTrip({ a: shared, b: shared }) as { a: object; b: object };
    expect(back.a).toBe(back.b);
  });

  it('reads what plain superjson sends', () => {
    const sent = superjson.serialize({ at: new Date(0), list: [1, 'two'] });
    expect(transformer.deserialize(JSON.parse(JSON.stringify(sent)))).toEqual({
      at: new Date(0),
      list: [1, 'two'],
    });
  });
});
