/**
 * `npm run bench -- knowledge`: the knowledge base (server/knowledge/, docs/knowledge-base.md)
 * with BENCH_CHUNKS chunks (default 100,000) of BENCH_DIMENSIONS-dimensional embeddings
 * (default 384) in one project. PGlite by default, PostgreSQL with TEST_DATABASE_URL.
 *
 * - Indexing: documents of 1,000 chunks added through addDocument (parse, chunk, store, embed
 *   in batches), the embedder's own time subtracted; beside the same 1,000 rows stored by one
 *   createMany (the floor of writing them).
 * - Retrieval: searchKnowledge's p50/p95 over queries made of a chunk's words, the first search
 *   (which loads the vector cache) apart; beside a bare brute-force float32 scan over the same
 *   vectors in memory, the int8 scan by SIMD and by the plain loop, and the full-text query
 *   alone. And the int8 cache's recall@10 against the exact float32 ranking.
 * - The event model: another project's get_variables while 50 AI calls hang (bench/ai-hang.ts).
 * Prints; never fails on time.
 */
import { STOP_WORDS } from '../lib/knowledge/stop-words';
import { textQueries } from '../lib/knowledge/text-query';
import { nearest } from '../lib/knowledge/vector-index';
import { fuseRanks, normalise } from '../lib/knowledge/vectors';
import { fullTextRanked } from '../server/db/knowledge-sql';
import { plainSql } from '../server/db/raw-sql';
import { createTestDatabase } from '../server/db/test-support';
import { addDocument, reindexDocument } from '../server/knowledge/documents';
import type { KnowledgeEmbedder } from '../server/knowledge/embedder';
import { fullTextIds, searchKnowledge } from '../server/knowledge/search';
import { hashedVector } from '../server/knowledge/test-support';
import { clearVectorCache, projectVectors } from '../server/knowledge/vector-cache';
import { runAiHang } from './ai-hang';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
const DIMENSIONS = Number(process.env.BENCH_DIMENSIONS ?? 384);
const PER_DOCUMENT = 1_000;
const QUERIES = 60;
const VOCABULARY = 20_000;

/** Deterministic pseudo-random numbers (mulberry32), so runs compare. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(42);
/**
 * Words by Zipf's law (the word of rank r about 1/r as often as the first), as in prose; the
 * commonest are English stop words, which questions leave out (lib/knowledge/stop-words.ts).
 */
const COMMONEST = [...STOP_WORDS].slice(0, 60);
const CUMULATIVE = new Float64Array(VOCABULARY);
for (let r = 0, sum = 0; r < VOCABULARY; r++) CUMULATIVE[r] = sum += 1 / (r + 1);
function word(): string {
  const target = next() * CUMULATIVE[VOCABULARY - 1];
  let lo = 0;
  let hi = VOCABULARY - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return COMMONEST[lo] ?? `w${lo.toString(36)}`;
}
/** 260 to 480 characters: with chunks of 500, one paragraph a chunk. */
function paragraph(): string {
  const target = 260 + Math.floor(next() * 220);
  let text = word();
  while (text.length < target) text += ` ${word()}`;
  return text.slice(
    0,
    text.lastIndexOf(' ', 480) > 0 && text.length > 480 ? text.lastIndexOf(' ', 480) : undefined,
  );
}

const p = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
const ms = (x: number) => `${x.toFixed(1).padStart(8)} ms`;

export async function run() {
  const tdb = await createTestDatabase();
  try {
    const db = tdb.prisma;
    const projectId = (await db.project.create({ data: { name: 'bench', webhookSecret: 'whsec_bench' } })).id;
    let embedMs = 0;
    const vectors = new Map<string, Float32Array>();
    const embedder: KnowledgeEmbedder = {
      model: `bench-${DIMENSIONS}`,
      async embed(texts) {
        const t = performance.now();
        const out = texts.map((text) => hashedVector(text, DIMENSIONS));
        embedMs += performance.now() - t;
        return out;
      },
    };

    // Indexing, 1,000 chunks per document: a paragraph a chunk.
    const texts: string[] = [];
    let indexMs = 0;
    for (let d = 0; d * PER_DOCUMENT < CHUNKS; d++) {
      const n = Math.min(PER_DOCUMENT, CHUNKS - d * PER_DOCUMENT);
      const paragraphs = Array.from({ length: n }, paragraph);
      texts.push(...paragraphs);
      const t = performance.now();
      const doc = await addDocument(
        db,
        projectId,
        {
          title: `Document ${d}`,
          kind: 'text',
          bytes: new TextEncoder().encode(paragraphs.join('\n\n')),
          chunkSize: 500,
        },
        embedder,
      );
      indexMs += performance.now() - t;
      if (doc.status !== 'ready' || doc.chunkCount !== n)
        throw new Error(`document ${d}: ${doc.status} ${doc.chunkCount} chunks`);
    }
    const thousands = CHUNKS / 1000;
    console.log(`chunks: ${CHUNKS}, dimensions: ${DIMENSIONS}, database: ${tdb.mode}`);
    console.log(
      `indexing per 1,000 chunks (embedder's time subtracted) ${ms((indexMs - embedMs) / thousands)}`,
    );
    console.log(`  embedder's own time per 1,000 chunks                 ${ms(embedMs / thousands)}`);
    const floorProject = (await db.project.create({ data: { name: 'floor', webhookSecret: 'whsec_bench' } }))
      .id;
    const floorDoc = await db.knowledgeDocument.create({
      data: { projectId: floorProject, title: 'floor', sourceKind: 'text', chunkSize: 500, byteSize: 0 },
    });
    let t = performance.now();
    await db.knowledgeChunk.createMany({
      data: texts.slice(0, PER_DOCUMENT).map((text, position) => ({
        projectId: floorProject,
        documentId: floorDoc.id,
        position,
        headingPath: [],
        text,
      })),
    });
    console.log(`  baseline: 1,000 chunk rows by one createMany          ${ms(performance.now() - t)}`);

    // The exact baseline's vectors, as stored (the chunk's text embedded).
    const rows = await db.knowledgeChunk.findMany({ where: { projectId }, select: { id: true, text: true } });
    for (const r of rows) vectors.set(String(r.id), normalise(hashedVector(r.text, DIMENSIONS)));
    const ids = rows.map((r) => r.id);
    const flat = new Float32Array(rows.length * DIMENSIONS);
    for (const [i, r] of rows.entries()) flat.set(vectors.get(String(r.id)) as Float32Array, i * DIMENSIONS);

    // Queries: 6 words of a random chunk.
    const queries = Array.from({ length: QUERIES }, () => {
      const i = Math.floor(next() * rows.length);
      const words = rows[i].text.split(' ');
      const picked = Array.from({ length: 6 }, () => words[Math.floor(next() * words.length)]).join(' ');
      return { text: picked, vector: hashedVector(picked, DIMENSIONS), target: rows[i].id };
    });

    clearVectorCache();
    t = performance.now();
    await searchKnowledge(db, projectId, queries[0].text, queries[0].vector, { limit: 5 });
    console.log(`\nfirst search (loads the project's vectors)           ${ms(performance.now() - t)}`);
    const index = await projectVectors(db, projectId, DIMENSIONS);
    console.log(`  vector cache: ${(index.codes.byteLength / 1024 / 1024).toFixed(1)} MB of int8 codes`);
    // A change: one document of 1,000 chunks embedded again; the next search reads only its vectors.
    const changed = await db.knowledgeDocument.findFirstOrThrow({
      where: { projectId },
      select: { id: true },
    });
    await reindexDocument(db, projectId, changed.id, embedder, { full: true });
    t = performance.now();
    await searchKnowledge(db, projectId, queries[1].text, queries[1].vector, { limit: 5 });
    console.log(`first search after one document re-indexed          ${ms(performance.now() - t)}`);

    const times: number[] = [];
    let top1 = 0;
    for (const q of queries) {
      const s = performance.now();
      const hits = await searchKnowledge(db, projectId, q.text, q.vector, { limit: 5 });
      times.push(performance.now() - s);
      if (hits[0]?.chunkId === q.target) top1++;
    }
    times.sort((a, b) => a - b);
    console.log(
      `searchKnowledge (vector + full text, fused)  p50 ${ms(p(times, 0.5))}  p95 ${ms(p(times, 0.95))}`,
    );
    console.log(`  the queried chunk first in ${top1} of ${QUERIES}`);

    const scan: number[] = [];
    let recall = 0;
    for (const q of queries) {
      const query = normalise(q.vector);
      const s = performance.now();
      const scores = new Float32Array(ids.length);
      for (let v = 0, o = 0; v < ids.length; v++, o += DIMENSIONS) {
        let sum = 0;
        for (let i = 0; i < DIMENSIONS; i++) sum += query[i] * flat[o + i];
        scores[v] = sum;
      }
      const exact = [...scores.keys()]
        .sort((a, b) => scores[b] - scores[a])
        .slice(0, 10)
        .map((i) => ids[i]);
      scan.push(performance.now() - s);
      const approx = new Set(nearest(index, query, 10).map((h) => h.id));
      recall += exact.filter((id) => approx.has(id)).length / 10;
    }
    scan.sort((a, b) => a - b);
    console.log(
      `  baseline: bare float32 scan in memory, top 10  p50 ${ms(p(scan, 0.5))}  p95 ${ms(p(scan, 0.95))}`,
    );

    const int8: number[] = [];
    for (const q of queries) {
      const query = normalise(q.vector);
      const s = performance.now();
      nearest(index, query, 20);
      int8.push(performance.now() - s);
    }
    int8.sort((a, b) => a - b);
    console.log(
      `  the int8 cache's scan alone (SIMD), top 20   p50 ${ms(p(int8, 0.5))}  p95 ${ms(p(int8, 0.95))}`,
    );
    // The same codes outside WebAssembly's memory: scanned by the plain loop.
    const plain = { ...index, codes: Int8Array.from(index.codes) };
    const loop: number[] = [];
    for (const q of queries) {
      const query = normalise(q.vector);
      const s = performance.now();
      nearest(plain, query, 20);
      loop.push(performance.now() - s);
    }
    loop.sort((a, b) => a - b);
    console.log(
      `  baseline: the same int8 scan by the plain loop  p50 ${ms(p(loop, 0.5))}  p95 ${ms(p(loop, 0.95))}`,
    );
    console.log(
      `  int8 recall@10 against the exact float32 ranking: ${((recall / QUERIES) * 100).toFixed(1)} %`,
    );

    const fts: number[] = [];
    for (const q of queries) {
      const s = performance.now();
      await fullTextIds(db, projectId, q.text, 20);
      fts.push(performance.now() - s);
    }
    fts.sort((a, b) => a - b);
    console.log(
      `  the full-text side alone (word counts, two words, then the rarest), top 20  p50 ${ms(p(fts, 0.5))}  p95 ${ms(p(fts, 0.95))}`,
    );

    // Quality, bounded against unbounded: the same queries' full text by the earlier way (every
    // word, every match ranked), alone and fused with the same vector ranking as searchKnowledge.
    const unbounded = async (question: string) => {
      const { pairs, any } = textQueries(question);
      const run = (query: string) =>
        plainSql(db).run(fullTextRanked, { projectId, query, limit: 20, candidates: 1_000_000_000 });
      const ids = pairs ? (await run(pairs)).map((r) => r.id) : [];
      if (ids.length < 20 && any)
        for (const { id } of await run(any)) if (!ids.includes(id) && ids.length < 20) ids.push(id);
      return ids;
    };
    const firstFused = (vectorIds: number[], textIds: number[]) =>
      [...fuseRanks([vectorIds, textIds]).entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
    const found = { bounded: 0, unbounded: 0, boundedFirst: 0, unboundedFirst: 0 };
    for (const q of queries) {
      const vectorIds = nearest(index, normalise(q.vector), 20).map((h) => h.id);
      const mine = await fullTextIds(db, projectId, q.text, 20);
      const old = await unbounded(q.text);
      if (mine.includes(q.target)) found.bounded++;
      if (old.includes(q.target)) found.unbounded++;
      if (firstFused(vectorIds, mine) === q.target) found.boundedFirst++;
      if (firstFused(vectorIds, old) === q.target) found.unboundedFirst++;
    }
    console.log(
      `  the queried chunk in the full-text top 20: bounded ${found.bounded}, unbounded ${found.unbounded} of ${QUERIES}; ` +
        `first once fused: bounded ${found.boundedFirst}, unbounded ${found.unboundedFirst}`,
    );

    const any: number[] = [];
    for (const q of queries) {
      const query = textQueries(q.text).any;
      const s = performance.now();
      if (query)
        await plainSql(db).run(fullTextRanked, { projectId, query, limit: 20, candidates: 1_000_000_000 });
      any.push(performance.now() - s);
    }
    any.sort((a, b) => a - b);
    console.log(
      `  baseline: one any-word full-text query, top 20  p50 ${ms(p(any, 0.5))}  p95 ${ms(p(any, 0.95))}`,
    );
  } finally {
    await tdb.close();
  }
  await runAiHang();
}
