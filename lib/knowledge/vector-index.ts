import { simdCodes, simdDots } from './simd-scan';

/**
 * A project's chunk vectors as each process keeps them for the exact scan (no pgvector
 * on PGlite nor on most self-hosters' PostgreSQL; docs/knowledge-base.md has the figures): int8
 * codes with one scale per vector, a quarter of float32's memory. Pure: loading and caching are
 * server/knowledge/vector-cache.ts.
 */
export interface VectorIndex {
  /** The project's knowledge revision the index is current for. */
  revision: number;
  dimensions: number;
  ids: Int32Array;
  /** Each vector's document, so a change reloads only the documents it touched. */
  documentIds: Int32Array;
  codes: Int8Array;
  scales: Float32Array;
  /** The revision of each document whose vectors the index holds. */
  documentRevisions: ReadonlyMap<number, number>;
}

/** Vectors just read (of some documents), already quantised. */
export type VectorBatch = Pick<VectorIndex, 'ids' | 'documentIds' | 'codes' | 'scales'>;

/** What a scan needs. */
export type ScannedVectors = Pick<VectorIndex, 'dimensions' | 'ids' | 'codes' | 'scales'>;

export const emptyIndex = (dimensions: number): VectorIndex => ({
  revision: -1,
  dimensions,
  ids: new Int32Array(),
  documentIds: new Int32Array(),
  codes: new Int8Array(),
  scales: new Float32Array(),
  documentRevisions: new Map(),
});

/** The documents of `ready` (id and revision) whose vectors `prior` does not hold as they are. */
export function staleDocuments(
  prior: VectorIndex,
  ready: readonly { id: number; revision: number }[],
): number[] {
  return ready.filter((d) => prior.documentRevisions.get(d.id) !== d.revision).map((d) => d.id);
}

/**
 * The index at `revision`: `prior`'s vectors of the documents still ready at the same revision,
 * then `loaded` (the stale documents' vectors, read afresh). Documents no longer ready go.
 */
export function mergeIndex(
  prior: VectorIndex,
  ready: readonly { id: number; revision: number }[],
  loaded: readonly VectorBatch[],
  revision: number,
): VectorIndex {
  const { dimensions } = prior;
  const kept = new Set(
    ready.filter((d) => prior.documentRevisions.get(d.id) === d.revision).map((d) => d.id),
  );
  let count = 0;
  for (const documentId of prior.documentIds) if (kept.has(documentId)) count++;
  for (const batch of loaded) count += batch.ids.length;
  const ids = new Int32Array(count);
  const documentIds = new Int32Array(count);
  const codes = simdCodes(count, dimensions);
  const scales = new Float32Array(count);
  let at = 0;
  const copy = (from: VectorBatch, v: number) => {
    ids[at] = from.ids[v];
    documentIds[at] = from.documentIds[v];
    scales[at] = from.scales[v];
    codes.set(from.codes.subarray(v * dimensions, (v + 1) * dimensions), at * dimensions);
    at++;
  };
  for (let v = 0; v < prior.ids.length; v++) if (kept.has(prior.documentIds[v])) copy(prior, v);
  for (const batch of loaded) for (let v = 0; v < batch.ids.length; v++) copy(batch, v);
  return {
    revision,
    dimensions,
    ids,
    documentIds,
    codes,
    scales,
    documentRevisions: new Map(ready.map((d) => [d.id, d.revision])),
  };
}

/**
 * The `k` nearest vectors to `query` (normalised, of the index's dimension) by dot product,
 * best first: every vector scored (by SIMD when the codes were allocated by `simdCodes`, as
 * `mergeIndex` does; lib/knowledge/simd-scan.ts), keeping the best k found so far.
 */
export function nearest(
  index: ScannedVectors,
  query: Float32Array,
  k: number,
): { id: number; score: number }[] {
  const { ids } = index;
  const scores = scoreAll(index, query);
  const bestIds: number[] = [];
  const bestScores: number[] = [];
  let floor = Number.NEGATIVE_INFINITY;
  for (let v = 0; v < ids.length; v++) {
    const score = scores[v];
    if (bestIds.length >= k && score <= floor) continue;
    let at = bestScores.length;
    while (at > 0 && bestScores[at - 1] < score) at--;
    bestScores.splice(at, 0, score);
    bestIds.splice(at, 0, ids[v]);
    if (bestIds.length > k) {
      bestScores.pop();
      bestIds.pop();
    }
    if (bestIds.length >= k) floor = bestScores[bestScores.length - 1];
  }
  return bestIds.map((id, i) => ({ id, score: bestScores[i] }));
}

/** Each vector's cosine with `query`. */
function scoreAll({ dimensions, codes, scales, ids }: ScannedVectors, query: Float32Array): Float64Array {
  const scores = new Float64Array(ids.length);
  const simd = simdDots(codes, dimensions, query);
  if (simd) {
    for (let v = 0; v < ids.length; v++) scores[v] = simd.dots[v] * scales[v] * simd.scale;
    return scores;
  }
  for (let v = 0, offset = 0; v < ids.length; v++, offset += dimensions) {
    // Four sums side by side: the loop's additions do not wait on each other (about 1.5× faster).
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < dimensions; i += 4) {
      s0 += query[i] * codes[offset + i];
      s1 += query[i + 1] * codes[offset + i + 1];
      s2 += query[i + 2] * codes[offset + i + 2];
      s3 += query[i + 3] * codes[offset + i + 3];
    }
    for (; i < dimensions; i++) s0 += query[i] * codes[offset + i];
    scores[v] = (s0 + s1 + s2 + s3) * scales[v];
  }
  return scores;
}
