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

/**
 * One page (by id) of the searchable vectors of one dimension (and of one model, unless $model
 * is null): chunks of ready documents.
 * bytea arrives as bytes on both databases (a Buffer from pg, a Uint8Array from PGlite).
 */
export const vectorPage = new PreparedStatement(
  `SELECT c.id, c.embedding
   FROM "KnowledgeChunk" c JOIN "KnowledgeDocument" d ON d.id = c."documentId"
   WHERE c."projectId" = $projectId::int AND d.status = 'ready' AND c.dimensions = $dimensions::int
     AND ($model::text IS NULL OR c."embeddingModel" = $model::text) AND c.embedding IS NOT NULL AND c.id > $after::int
   ORDER BY c.id LIMIT $limit::int`,
  z.object({ id: column.int, embedding: z.instanceof(Uint8Array) }),
);

/**
 * Chunks of ready documents matching $query (a tsquery of the 'simple' configuration, see
 * textQueries in lib/knowledge/vectors.ts), best first by ts_rank_cd: headings weigh less
 * than the text (weights set by the chunk's trigger).
 */
export const fullTextRanked = new PreparedStatement(
  `SELECT c.id
   FROM "KnowledgeChunk" c JOIN "KnowledgeDocument" d ON d.id = c."documentId",
     to_tsquery('simple', $query::text) AS q
   WHERE c."projectId" = $projectId::int AND d.status = 'ready' AND c."searchVector" @@ q
   ORDER BY ts_rank_cd(c."searchVector", q) DESC, c.id
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
