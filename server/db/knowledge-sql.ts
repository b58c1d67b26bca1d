import { z } from 'zod';
import { column } from './columns';
import { PreparedStatement } from './raw-sql';

/**
 * The knowledge base's SQL (server/knowledge/, docs/knowledge-base.md): embeddings written in
 * batches, the vectors a process loads into its search cache, and the full-text ranking.
 */

/** A batch of embeddings: $rows is a JSON array of { id, embedding: base64 float32 }. */
export const setEmbeddings = new PreparedStatement(
  `UPDATE "KnowledgeChunk" AS c
   SET embedding = decode(r.embedding, 'base64'), "embeddingModel" = $model::text, dimensions = $dimensions::int
   FROM jsonb_to_recordset($rows::jsonb) AS r (id int, embedding text)
   WHERE c.id = r.id AND c."projectId" = $projectId::int`,
);

/** The project's knowledge revision: a process's vector cache is good while it is unchanged. */
export const knowledgeRevision = new PreparedStatement(
  `SELECT "knowledgeRevision" AS revision FROM "Project" WHERE id = $projectId::int`,
  z.object({ revision: column.int }),
);

/** The project's ready documents with their revisions: what a process's vector cache must hold. */
export const readyDocuments = new PreparedStatement(
  `SELECT id, revision FROM "KnowledgeDocument"
   WHERE "projectId" = $projectId::int AND status = 'ready' ORDER BY id`,
  z.object({ id: column.int, revision: column.int }),
);

/**
 * One page (by position, at most $limit chunks after $after) of a document's vectors of one
 * dimension (and of one model, unless $model is null), as one row: the ids (int4send: 4 bytes
 * each, big-endian) and the embeddings, each concatenated in position order, and
 * the page's last position. One row a page, not a row a chunk: a driver's cost is per row and
 * per value; and read by the document's (documentId, position) index in its order, so a page
 * costs its own rows whatever the table's size and whatever the planner knows of it (PGlite's
 * tables are never analysed). No row: nothing after $after. Both as base64 text: the drivers'
 * reading of a bytea value is about 8 times slower than decoding its base64 (1.5 MB: 79 ms
 * against 10 ms on PGlite).
 */
export const vectorPage = new PreparedStatement(
  `SELECT encode(string_agg(int4send(p.id), ''::bytea ORDER BY p.position), 'base64') AS ids,
     encode(string_agg(p.embedding, ''::bytea ORDER BY p.position), 'base64') AS embeddings,
     max(p.position) AS last
   FROM (
     SELECT c.id, c.position, c.embedding FROM "KnowledgeChunk" c
     WHERE c."documentId" = $documentId::int AND c.position > $after::int AND c."projectId" = $projectId::int
       AND c.dimensions = $dimensions::int AND ($model::text IS NULL OR c."embeddingModel" = $model::text)
       AND c.embedding IS NOT NULL
     ORDER BY c.position LIMIT $limit::int
   ) p
   HAVING count(*) > 0`,
  z.object({ ids: column.text, embeddings: column.text, last: column.int }),
);

/**
 * How many chunks of the project hold each of $words (letters and digits only), counted through
 * the full-text index and at most $cap each: the rarity of the question's words, which picks
 * what the full-text side ranks (boundedTextQueries in lib/knowledge/text-query.ts). Counting
 * reads no tsvector and ranks nothing; the cap stops each count early.
 *
 * `"projectId" + 0` here and in fullTextRanked keeps the planner off the (projectId, id) index,
 * so the full-text index finds the matches: PGlite's tables are never analysed, and without
 * statistics the planner otherwise walked the project's chunks, testing each (seconds at
 * 100,000 chunks). The cost: a word common in other projects' chunks is visited there too.
 */
export const wordMatches = new PreparedStatement(
  `SELECT w.word, (
     SELECT count(*)::int FROM (
       SELECT 1 FROM "KnowledgeChunk" c
       WHERE c."projectId" + 0 = $projectId::int AND c."searchVector" @@ to_tsquery('simple', w.word)
       LIMIT $cap::int) m
   ) AS matches
   FROM unnest($words::text[]) AS w (word)`,
  z.object({ word: column.text, matches: column.int }),
);

/**
 * Chunks of ready documents matching $query (a tsquery of the 'simple' configuration, see
 * lib/knowledge/text-query.ts), best first by ts_rank_cd: headings weigh less than the text
 * (weights set by the chunk's trigger). At most $candidates matches, found by the index, are
 * ranked: ranking is the cost, one row at a time, and a query made of rare words
 * (boundedTextQueries) has fewer matches than that.
 *
 * The document's status is a subquery per match, not a join: joined, the planner without
 * statistics (PGlite's never has any) or with a fresh knowledge base's looped over the documents
 * and searched the full-text index once for each (250 to 400 ms at 100 documents on either
 * database); a subquery keeps the index searched once.
 */
export const fullTextRanked = new PreparedStatement(
  `SELECT m.id
   FROM (
     SELECT c.id, c."searchVector"
     FROM "KnowledgeChunk" c
     WHERE c."projectId" + 0 = $projectId::int
       AND c."searchVector" @@ to_tsquery('simple', $query::text)
       AND (SELECT d.status FROM "KnowledgeDocument" d WHERE d.id = c."documentId") = 'ready'
     LIMIT $candidates::int
   ) m
   ORDER BY ts_rank_cd(m."searchVector", to_tsquery('simple', $query::text)) DESC, m.id
   LIMIT $limit::int`,
  z.object({ id: column.int }),
);

/** The chunks a search answers with, with their document's title. */
export const chunksForResults = new PreparedStatement(
  `SELECT c.id, c."documentId", d.title, to_jsonb(c."headingPath") AS "headingPath", c.text
   FROM "KnowledgeChunk" c JOIN "KnowledgeDocument" d ON d.id = c."documentId"
   WHERE c."projectId" = $projectId::int AND c.id = ANY($ids::int[])`,
  z.object({
    id: column.int,
    documentId: column.int,
    title: column.text,
    headingPath: column.json(z.array(z.string())),
    text: column.text,
  }),
);

/** Whether the server could install pgvector (docs/knowledge-base.md: how it would be used). */
export const pgvectorAvailable = new PreparedStatement(
  `SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`,
  z.object({ available: column.bool }),
);
