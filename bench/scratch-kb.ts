import { questionWords, boundedTextQueries, textQueries } from '../lib/knowledge/text-query';
import { fullTextRanked, wordMatches } from '../server/db/knowledge-sql';
import { plainSql } from '../server/db/raw-sql';
import { createTestDatabase } from '../server/db/test-support';

const N = Number(process.env.BENCH_CHUNKS ?? 20000);
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(42);
const V = 20000;
const C = new Float64Array(V);
for (let r = 0, s = 0; r < V; r++) C[r] = s += 1 / (r + 1);
const word = () => { const t = next() * C[V - 1]; let lo = 0, hi = V - 1; while (lo < hi) { const m = (lo + hi) >> 1; if (C[m] < t) lo = m + 1; else hi = m; } return lo < 60 ? 'the' : `w${lo.toString(36)}`; };
const para = () => { let s = word(); while (s.length < 370) s += ` ${word()}`; return s; };

const tdb = await createTestDatabase();
const db = tdb.prisma;
const sql = plainSql(db);
const projectId = (await db.project.create({ data: { name: 'b', webhookSecret: 'w' } })).id;
const texts: string[] = [];
for (let d = 0; d * 1000 < N; d++) {
  const doc = await db.knowledgeDocument.create({ data: { projectId, title: 'd', sourceKind: 'text', chunkSize: 500, byteSize: 0, status: 'ready' } });
  const ps = Array.from({ length: 1000 }, para); texts.push(...ps);
  await db.knowledgeChunk.createMany({ data: ps.map((text, position) => ({ projectId, documentId: doc.id, position, headingPath: [], text })) });
}
await sql.query('ANALYZE');
const qs = Array.from({ length: 30 }, () => { const w = texts[Math.floor(next() * texts.length)].split(' '); return Array.from({ length: 6 }, () => w[Math.floor(next() * w.length)]).join(' '); });
const time = async (label: string, f: (q: string) => Promise<unknown>) => {
  const ts: number[] = [];
  for (const q of qs) { const t = performance.now(); await f(q); ts.push(performance.now() - t); }
  ts.sort((a, b) => a - b);
  console.log(label, ts[15].toFixed(1), ts[28].toFixed(1));
};
for (const [common, cand] of [[500, 1000], [200, 500], [100, 300]]) {
  console.log('common', common, 'cand', cand);
  await time('counts', (q) => sql.run(wordMatches, { projectId, words: questionWords(q), cap: common }));
  await time('pairs', async (q) => { const c = await sql.run(wordMatches, { projectId, words: questionWords(q), cap: common }); const b = boundedTextQueries(c, { common, budget: cand }); if (b.pairs) await sql.run(fullTextRanked, { projectId, query: b.pairs, limit: 20, candidates: cand }); });
  await time('any', async (q) => { const c = await sql.run(wordMatches, { projectId, words: questionWords(q), cap: common }); const b = boundedTextQueries(c, { common, budget: cand }); if (b.any) await sql.run(fullTextRanked, { projectId, query: b.any, limit: 20, candidates: cand }); });
}
await time('old any', async (q) => { const a = textQueries(q).any; if (a) await sql.run(fullTextRanked, { projectId, query: a, limit: 20, candidates: 1e9 }); });
await tdb.close();
