import { describe, expect, it } from 'vitest';
import { seededRandom } from '@/lib/formula/seeded-random';
import { simdCodes, simdDots } from './simd-scan';
import { normalise, quantise } from './vectors';

/** Deterministic pseudo-random numbers in [-0.5, 0.5). */
function random(seed: number) {
  const next = seededRandom(seed);
  return () => next() - 0.5;
}

describe('the SIMD dot products', () => {
  it.each([1, 67, 384])(
    'equal the plain loop at %i dimensions, the last vector and odd tails included',
    (dimensions) => {
      const next = random(dimensions);
      const count = 37;
      const codes = simdCodes(count, dimensions);
      const scales = new Float32Array(count);
      for (let v = 0; v < count; v++)
        scales[v] = quantise(normalise(Array.from({ length: dimensions }, next)), codes, v * dimensions);
      const query = normalise(Array.from({ length: dimensions }, next));
      const found = simdDots(codes, dimensions, query);
      expect(found).not.toBeNull();
      const { dots, scale } = found as NonNullable<typeof found>;
      expect(dots).toHaveLength(count);
      for (let v = 0; v < count; v++) {
        let plain = 0;
        for (let i = 0; i < dimensions; i++) plain += query[i] * codes[v * dimensions + i];
        // The query's int16 rounding: at most half a step per dimension, times |code| ≤ 127.
        expect(Math.abs(dots[v] * scale - plain)).toBeLessThanOrEqual((scale / 2) * 127 * dimensions);
        expect(dots[v] * scale * scales[v]).toBeCloseTo(plain * scales[v], 3);
      }
    },
  );

  it('cannot overflow: every code and query value at its largest, at 4,096 dimensions', () => {
    const dimensions = 4096;
    const codes = simdCodes(2, dimensions);
    codes.fill(127, 0, dimensions);
    codes.fill(-127, dimensions);
    const query = new Float32Array(dimensions).fill(1 / Math.sqrt(dimensions));
    const { dots, scale } = simdDots(codes, dimensions, query) as NonNullable<ReturnType<typeof simdDots>>;
    const expected = 127 * dimensions * (1 / Math.sqrt(dimensions));
    expect(dots[0] * scale).toBeCloseTo(expected, 0);
    expect(dots[1] * scale).toBeCloseTo(-expected, 0);
  });

  it('answers null for codes it did not allocate, or of another dimension', () => {
    const query = normalise([1, 0, 0, 0]);
    expect(simdDots(new Int8Array(8), 4, query)).toBeNull();
    expect(simdDots(simdCodes(2, 4), 2, normalise([1, 0]))).toBeNull();
    expect(simdCodes(0, 4)).toHaveLength(0);
  });
});
