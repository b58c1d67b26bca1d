import { MAX_SEARCH_LIMIT } from '@/lib/knowledge/limits';
import { boundedTextQueries, questionWords } from '@/lib/knowledge/text-query';
import { nearest } from '@/lib/knowledge/vector-index';
import { fuseRanks, normalise } from '@/lib/knowledge/vectors';
import type { PrismaClient } from '@/server/db/client-type';
import { chunksForResults, fullTextRanked, wordMatches } from '@/server/db/knowledge-sql';
import { plainSql } from '@/server/db/raw-sql';
import { invalid } from '@/server/errors';
import type { KnowledgeEmbedder } from './embedder';
import { projectVectors } from './vector-cache';

export interface KnowledgeHit {
  chunkId: number;
  documentId: number;
  title: string;
  headingPath: string[];
  text: string;
  /** Reciprocal rank fusion of the vector and full-text ranks: higher is better, 2/61 at most. */
  score: number;
}

/** Candidates each method ranks for fusion, per result asked for. */
const CANDIDATES_PER_RESULT = 4;

/**
 * The chunks of the project's ready documents that best answer `query`, best first: the
 * nearest by embedding (`queryVector`, the query embedded by the same model as the chunks)
 * and the best full-text matches, fused by reciprocal rank (lib/knowledge/vectors.ts). Chunks
 * of another dimension than the query's are not compared, nor, with `model` (the embedder's),
 * those another model embedded.
 */
export async function searchKnowledge(
  db: PrismaClient,
  projectId: number,
  query: string,
  queryVector: readonly number[],
  options: { limit?: number; model?: string } = {},
): Promise<KnowledgeHit[]> {
  const limit = Math.min(Math.max(1, Math.floor(options.limit ?? 5)), MAX_SEARCH_LIMIT);
  const candidates = Math.max(20, limit * CANDIDATES_PER_RESULT);
  let vector: Float32Array;
  try {
    vector = normalise(queryVector);
  } catch (error) {
    throw invalid(`queryVector: ${(error as Error).message}`, 'queryVector');
  }
  // The scan runs as soon as the vectors are there, while the full-text side waits on the database.
  const [vectorIds, textIds] = await Promise.all([
    projectVectors(db, projectId, vector.length, options.model ?? null).then((index) =>
      nearest(index, vector, candidates).map((hit) => hit.id),
    ),
    fullTextIds(db, projectId, query, candidates),
  ]);
  const fused = [...fuseRanks([vectorIds, textIds]).entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit);
  if (!fused.length) return [];
  const rows = await plainSql(db).run(chunksForResults, { projectId, ids: fused.map(([id]) => id) });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return fused.flatMap(([id, score]) => {
    const row = byId.get(id);
    return row
      ? [
          {
            chunkId: id,
            documentId: row.documentId,
            title: row.title,
            headingPath: row.headingPath,
            text: row.text,
            score,
          },
        ]
      : [];
  });
}

/**
 * `searchKnowledge` for a question in words: embedded first by the project's embedder (the
 * assistant's retrieval and the screen's test search).
 */
export async function searchWithEmbedder(
  db: PrismaClient,
  projectId: number,
  query: string,
  embedder: KnowledgeEmbedder,
  options: { limit?: number } = {},
): Promise<KnowledgeHit[]> {
  let vector: number[] | undefined;
  try {
    [vector] = await embedder.embed([query]);
  } catch (error) {
    throw invalid(
      `The question could not be embedded: ${error instanceof Error ? error.message : String(error)}`,
      'query',
    );
  }
  if (!vector)
    throw invalid(`The embedding model "${embedder.model}" returned no vector for the question.`, 'query');
  return searchKnowledge(db, projectId, query, vector, { ...options, model: embedder.model });
}

/**
 * A word held by this many chunks or more is common: the full-text side pairs it only with a
 * rarer word, and leaves it out of the any-word fallback when rarer words are there.
 */
export const COMMON_WORD_CHUNKS = 300;
/** The most chunks one full-text query ranks (docs/knowledge-base.md, "Search"). */
export const RANKED_CANDIDATES = 500;

/**
 * The best full-text matches' ids, best first: chunks holding two of the question's words, then,
 * when those are fewer than `limit`, chunks holding any of its rarest words. Bounded whatever
 * the knowledge base's size: each word's chunks are counted by the index up to
 * COMMON_WORD_CHUNKS, and each query ranks at most RANKED_CANDIDATES matches.
 */
export async function fullTextIds(db: PrismaClient, projectId: number, question: string, limit: number) {
  const words = questionWords(question);
  if (!words.length) return [];
  const sql = plainSql(db);
  const counted = await sql.run(wordMatches, { projectId, words, cap: COMMON_WORD_CHUNKS });
  const { pairs, any } = boundedTextQueries(counted, {
    common: COMMON_WORD_CHUNKS,
    budget: RANKED_CANDIDATES,
  });
  const ranked = (query: string) =>
    sql.run(fullTextRanked, { projectId, query, limit, candidates: RANKED_CANDIDATES });
  const ids = pairs ? (await ranked(pairs)).map((r) => r.id) : [];
  if (ids.length >= limit || !any) return ids;
  const seen = new Set(ids);
  for (const { id } of await ranked(any)) if (!seen.has(id) && ids.length < limit) ids.push(id);
  return ids;
}
