import { describe, expect, it } from 'vitest';
import { dot, normalise, quantise } from '@/lib/knowledge/vectors';
import { nearest, type VectorIndex } from './vector-cache';

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

describe('the int8 scan', () => {
  it('finds nearly the exact float32 top 10, best first, with cosine scores', () => {
    const next = random(7);
    const dimensions = 67; // not a multiple of four: the loop's tail counts too
    const vectors = Array.from({ length: 2000 }, () => normalise(Array.from({ length: dimensions }, next)));
    const codes = new Int8Array(vectors.length * dimensions);
    const scales = Float32Array.from(vectors, (v, i) => quantise(v, codes, i * dimensions));
    const index: VectorIndex = {
      revision: 0,
      dimensions,
      ids: Int32Array.from(vectors, (_, i) => i + 1000),
      codes,
      scales,
    };
    let overlap = 0;
    for (let q = 0; q < 20; q++) {
      const query = normalise(Array.from({ length: dimensions }, next));
      const exact = vectors
        .map((v, i) => ({ id: i + 1000, score: dot(query, v) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 10);
      const found = nearest(index, query, 10);
      expect(found).toHaveLength(10);
      for (let i = 1; i < found.length; i++)
        expect(found[i - 1].score).toBeGreaterThanOrEqual(found[i].score);
      expect(found[0].score).toBeCloseTo(exact[0].score, 1);
      const ids = new Set(found.map((f) => f.id));
      overlap += exact.filter((e) => ids.has(e.id)).length;
    }
    expect(overlap / 200).toBeGreaterThan(0.9);
  });

  it('answers fewer than k when the index is small, and nothing when empty', () => {
    const codes = new Int8Array(4);
    const scales = Float32Array.of(quantise(normalise([1, 0, 0, 0]), codes, 0));
    const index: VectorIndex = { revision: 0, dimensions: 4, ids: Int32Array.of(5), codes, scales };
    expect(nearest(index, normalise([1, 1, 0, 0]), 3).map((h) => h.id)).toEqual([5]);
    expect(
      nearest(
        { ...index, ids: new Int32Array(), codes: new Int8Array(), scales: new Float32Array() },
        normalise([1, 0, 0, 0]),
        3,
      ),
    ).toEqual([]);
  });
});
