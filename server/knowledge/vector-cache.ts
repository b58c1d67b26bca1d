import {
  emptyIndex,
  mergeIndex,
  staleDocuments,
  type VectorBatch,
  type VectorIndex,
} from '@/lib/knowledge/vector-index';
import { bigEndianInts, bytesVector, quantise } from '@/lib/knowledge/vectors';
import type { PrismaClient } from '@/server/db/client-type';
import { knowledgeRevision, readyDocuments, vectorPage } from '@/server/db/knowledge-sql';
import { plainSql } from '@/server/db/raw-sql';

/**
 * Each process's copy of a project's chunk vectors for the exact scan
 * (lib/knowledge/vector-index.ts), keyed by the project's knowledge revision, which every change
 * of its searchable chunks bumps, so an instance never searches stale vectors: a search reads
 * the revision (one indexed row) and, when it moved, the ready documents' own revisions, and
 * reads again only the vectors of the documents whose revision moved; those no longer ready go.
 */

/** Memory the cache may hold across projects; the least recently searched go first. */
const MAX_CACHE_BYTES = 512 * 1024 * 1024;
/** Embedding bytes read per page (one row): about 2,700 chunks of 384 dimensions. */
const PAGE_BYTES = 4 * 1024 * 1024;

const globalForCache = globalThis as unknown as {
  blockbotVectorIndexes?: Map<string, Promise<VectorIndex>>;
};
// Insertion order is recency: a hit is moved to the end.
globalForCache.blockbotVectorIndexes ??= new Map();
const cache = globalForCache.blockbotVectorIndexes;

// The codes, then 4 bytes a vector each: its id, document, scale and the scan's dot product.
const sizeOf = (index: VectorIndex) => index.codes.byteLength + index.ids.byteLength * 4;

/**
 * The project's current vectors of `dimensions` (and of `model`, when given: two models' vectors
 * of one dimension are not comparable), from the cache, brought up to date, or loaded afresh.
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
  const prior = cached ? await cached.catch(() => null) : null;
  if (cached && prior?.revision === revision) {
    cache.delete(key);
    cache.set(key, cached);
    return prior;
  }
  // Read after the revision: a change meanwhile makes the next search update again.
  const loading = updateIndex(db, projectId, prior ?? emptyIndex(dimensions), model, revision);
  cache.delete(key);
  cache.set(key, loading);
  loading.then(evict, () => cache.get(key) === loading && cache.delete(key));
  return loading;
}

async function updateIndex(
  db: PrismaClient,
  projectId: number,
  prior: VectorIndex,
  model: string | null,
  revision: number,
): Promise<VectorIndex> {
  const ready = await plainSql(db).run(readyDocuments, { projectId });
  const stale = staleDocuments(prior, ready);
  const loaded = stale.length ? await loadVectors(db, projectId, stale, prior.dimensions, model) : [];
  return mergeIndex(prior, ready, loaded, revision);
}

/** The documents' vectors, each document page by page (one row each), quantised as they arrive. */
async function loadVectors(
  db: PrismaClient,
  projectId: number,
  documents: number[],
  dimensions: number,
  model: string | null,
): Promise<VectorBatch[]> {
  const sql = plainSql(db);
  const limit = Math.max(1, Math.floor(PAGE_BYTES / (dimensions * 4)));
  const bytes = dimensions * 4;
  const batches: VectorBatch[] = [];
  for (const documentId of documents)
    for (let after = -1; ; ) {
      const [page] = await sql.run(vectorPage, { projectId, documentId, dimensions, model, after, limit });
      if (!page) break;
      const ids = bigEndianInts(Buffer.from(page.ids, 'base64'));
      const embeddings = Buffer.from(page.embeddings, 'base64');
      const codes = new Int8Array(ids.length * dimensions);
      const scales = new Float32Array(ids.length);
      for (let v = 0; v < ids.length; v++)
        scales[v] = quantise(
          bytesVector(embeddings.subarray(v * bytes, (v + 1) * bytes)),
          codes,
          v * dimensions,
        );
      batches.push({ ids, documentIds: new Int32Array(ids.length).fill(documentId), codes, scales });
      if (ids.length < limit) break;
      after = page.last;
    }
  return batches;
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

/** For tests and the bench: forget every cached project. */
export function clearVectorCache(): void {
  cache.clear();
}
