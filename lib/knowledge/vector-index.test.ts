import { describe, expect, it } from 'vitest';
import { seededRandom } from '@/lib/formula/seeded-random';
import { simdCodes } from './simd-scan';
import { mergeIndex, nearest, type ScannedVectors, staleDocuments, type VectorIndex } from './vector-index';
import { dot, normalise, quantise } from './vectors';

/** Deterministic pseudo-random numbers in [-0.5, 0.5). */
function random(seed: number) {
  const next = seededRandom(seed);
  return () => next() - 0.5;
}

describe('the int8 scan', () => {
  it.each([
    ['the plain loop', (length: number) => new Int8Array(length)],
    ['SIMD', (length: number) => simdCodes(length / 67, 67)],
  ])('finds nearly the exact float32 top 10, best first, with cosine scores (%s)', (_, allocate) => {
    const next = random(7);
    const dimensions = 67; // not a multiple of four (nor of 16): the loops' tails count too
    const vectors = Array.from({ length: 2000 }, () => normalise(Array.from({ length: dimensions }, next)));
    const codes = allocate(vectors.length * dimensions);
    const scales = Float32Array.from(vectors, (v, i) => quantise(v, codes, i * dimensions));
    const index: ScannedVectors = {
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
    const index: ScannedVectors = { dimensions: 4, ids: Int32Array.of(5), codes, scales };
    expect(nearest(index, normalise([1, 1, 0, 0]), 3).map((h) => h.id)).toEqual([5]);
    expect(
      nearest(
        { ...index, ids: new Int32Array(), codes: new Int8Array(), scales: new Float32Array() },
        normalise([1, 0, 0, 0]),
        3,
      ),
    ).toEqual([]);
  });

  it('ranks alike by SIMD and by the plain loop', () => {
    const next = random(11);
    const dimensions = 384;
    const count = 3000;
    const plain = new Int8Array(count * dimensions);
    const scales = new Float32Array(count);
    for (let v = 0; v < count; v++)
      scales[v] = quantise(normalise(Array.from({ length: dimensions }, next)), plain, v * dimensions);
    const simd = simdCodes(count, dimensions);
    simd.set(plain);
    const ids = Int32Array.from({ length: count }, (_, i) => i);
    for (let q = 0; q < 10; q++) {
      const query = normalise(Array.from({ length: dimensions }, next));
      const byLoop = nearest({ dimensions, ids, codes: plain, scales }, query, 20);
      const bySimd = nearest({ dimensions, ids, codes: simd, scales }, query, 20);
      expect(bySimd.map((h) => h.id)).toEqual(byLoop.map((h) => h.id));
      for (const [i, hit] of bySimd.entries()) expect(hit.score).toBeCloseTo(byLoop[i].score, 4);
    }
  });
});

describe('updating the index by document', () => {
  const batch = (documentId: number, ids: number[]) => ({
    ids: Int32Array.from(ids),
    documentIds: Int32Array.from(ids, () => documentId),
    codes: Int8Array.from(ids.flatMap((id) => [id, -id])),
    scales: Float32Array.from(ids, () => 0.5),
  });

  it('keeps the unchanged documents, drops those gone, and adds the reloaded', () => {
    const empty: VectorIndex = {
      revision: -1,
      dimensions: 2,
      ids: new Int32Array(),
      documentIds: new Int32Array(),
      codes: new Int8Array(),
      scales: new Float32Array(),
      documentRevisions: new Map(),
    };
    const first = [
      { id: 1, revision: 1 },
      { id: 2, revision: 1 },
      { id: 3, revision: 4 },
    ];
    expect(staleDocuments(empty, first)).toEqual([1, 2, 3]);
    const index = mergeIndex(empty, first, [batch(1, [10, 11]), batch(2, [20]), batch(3, [30])], 5);
    expect([...index.ids]).toEqual([10, 11, 20, 30]);
    expect(index.revision).toBe(5);

    // Document 1 re-indexed (its chunk 11 gone), document 2 no longer ready, document 4 added.
    const second = [
      { id: 1, revision: 2 },
      { id: 3, revision: 4 },
      { id: 4, revision: 1 },
    ];
    expect(staleDocuments(index, second)).toEqual([1, 4]);
    const next = mergeIndex(index, second, [batch(1, [10]), batch(4, [40, 41])], 6);
    expect([...next.ids]).toEqual([30, 10, 40, 41]);
    expect([...next.documentIds]).toEqual([3, 1, 4, 4]);
    expect([...next.codes]).toEqual([30, -30, 10, -10, 40, -40, 41, -41]);
    expect([...next.scales]).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(staleDocuments(next, second)).toEqual([]);
  });
});
