import { bytesVector, quantise } from '@/lib/knowledge/vectors';
import type { PrismaClient } from '@/server/db/client-type';
import { knowledgeRevision, vectorPage } from '@/server/db/knowledge-sql';
import { plainSql } from '@/server/db/raw-sql';

/**
 * Each process's copy of a project's chunk vectors for the brute-force search (no pgvector on
 * PGlite nor on most self-hosters' PostgreSQL; docs/knowledge-base.md has the figures): int8
 * codes with one scale per vector, a quarter of float32's memory. Keyed by the project's
 * knowledge revision, which every change of its searchable chunks bumps, so an instance never
 * searches stale vectors: a search reads the revision (one indexed row) and reloads on a change.
 */
export interface VectorIndex {
  revision: number;
  dimensions: number;
  ids: Int32Array;
  codes: Int8Array;
  scales: Float32Array;
}

/** Memory the cache may hold across projects; the least recently searched go first. */
const MAX_CACHE_BYTES = 512 * 1024 * 1024;
const PAGE = 5_000;

const globalForCache = globalThis as unknown as {
  blockbotVectorCache?: Map<string, Promise<VectorIndex>>;
};
// Insertion order is recency: a hit is moved to the end.
globalForCache.blockbotVectorCache ??= new Map();
const cache = globalForCache.blockbotVectorCache;

const sizeOf = (index: VectorIndex) => index.codes.byteLength + index.ids.byteLength * 2;

/**
 * The project's current vectors of `dimensions` (and of `model`, when given: two models' vectors
 * of one dimension are not comparable), from the cache or loaded afresh.
 */
export async function projectVectors(
  db: PrismaClient,
  projectId: number,
  dimensions: number,
  model: string | null = null,
): Promise<VectorIndex> {
  const sql = plainSql(db);
  const [row] = await sql.run(knowledgeRevision, { projectId });
  const revision = row?.revision ?? 0;
  const key = `${projectId}:${dimensions}:${model ?? ''}`;
  const cached = cache.get(key);
  if (cached) {
    const index = await cached.catch(() => null);
    if (index?.revision === revision) {
      cache.delete(key);
      cache.set(key, cached);
      return index;
    }
  }
  // Read after the revision: a change meanwhile makes the next search load again.
  const loading = loadVectors(db, projectId, dimensions, model, revision);
  cache.delete(key);
  cache.set(key, loading);
  loading.then(evict, () => cache.get(key) === loading && cache.delete(key));
  return loading;
}

async function loadVectors(
  db: PrismaClient,
  projectId: number,
  dimensions: number,
  model: string | null,
  revision: number,
): Promise<VectorIndex> {
  const sql = plainSql(db);
  const ids: number[] = [];
  const parts: Int8Array[] = [];
  const scales: number[] = [];
  for (let after = 0; ; ) {
    const rows = await sql.run(vectorPage, { projectId, dimensions, model, after, limit: PAGE });
    const codes = new Int8Array(rows.length * dimensions);
    rows.forEach((r, i) => {
      ids.push(r.id);
      scales.push(quantise(bytesVector(r.embedding), codes, i * dimensions));
    });
    parts.push(codes);
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].id;
  }
  const codes = new Int8Array(ids.length * dimensions);
  let offset = 0;
  for (const part of parts) {
    codes.set(part, offset);
    offset += part.length;
  }
  return { revision, dimensions, ids: Int32Array.from(ids), codes, scales: Float32Array.from(scales) };
}

async function evict(): Promise<void> {
  const entries = [...cache.entries()];
  const sizes = await Promise.all(entries.map(([, p]) => p.then(sizeOf, () => 0)));
  let total = sizes.reduce((a, b) => a + b, 0);
  for (let i = 0; i < entries.length - 1 && total > MAX_CACHE_BYTES; i++) {
    cache.delete(entries[i][0]);
    total -= sizes[i];
  }
}

/**
 * The `k` nearest vectors to `query` (normalised, of the index's dimension) by dot product,
 * best first: one pass over the codes keeping the best k found so far.
 */
export function nearest(index: VectorIndex, query: Float32Array, k: number): { id: number; score: number }[] {
  const { dimensions, codes, scales, ids } = index;
  const bestIds: number[] = [];
  const bestScores: number[] = [];
  let floor = Number.NEGATIVE_INFINITY;
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
    const score = (s0 + s1 + s2 + s3) * scales[v];
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

/** For tests and the bench: forget every cached project. */
export function clearVectorCache(): void {
  cache.clear();
}
