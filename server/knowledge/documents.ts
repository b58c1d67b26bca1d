import { z } from 'zod';
import { chunkSections } from '@/lib/knowledge/chunk';
import {
  DEFAULT_CHUNK_SIZE,
  MAX_CHUNK_SIZE,
  MAX_DOCUMENT_BYTES,
  MIN_CHUNK_SIZE,
  megabytes,
  type SourceKind,
} from '@/lib/knowledge/limits';
import { normalise, vectorBytes } from '@/lib/knowledge/vectors';
import type { PrismaClient } from '@/server/db/client-type';
import type { KnowledgeStatus } from '@/server/db/generated/client';
import { setEmbeddings } from '@/server/db/knowledge-sql';
import { plainSql } from '@/server/db/raw-sql';
import { DomainError, invalid, notFound, parseInput } from '@/server/errors';
import type { KnowledgeEmbedder } from './embedder';
import { fetchPage } from './fetch-page';
import { type ContentKind, parseDocument } from './parse-document';

/** Texts sent to the embedder at once: small enough for every provider's request limits. */
export const EMBED_BATCH = 64;

export const titleInput = z
  .string()
  .trim()
  .min(1, 'Give the document a title.')
  .max(200, 'At most 200 characters.');
export const chunkSizeInput = z
  .number()
  .int()
  .min(MIN_CHUNK_SIZE, `At least ${MIN_CHUNK_SIZE} characters per chunk.`)
  .max(MAX_CHUNK_SIZE, `At most ${MAX_CHUNK_SIZE} characters per chunk.`)
  .default(DEFAULT_CHUNK_SIZE);
export const chunkTextInput = z
  .string()
  .trim()
  .min(1, 'A chunk cannot be empty; delete the document or re-index it instead.')
  .max(MAX_CHUNK_SIZE, `At most ${MAX_CHUNK_SIZE} characters in a chunk.`);

const documentSelect = {
  id: true,
  title: true,
  sourceKind: true,
  sourceUrl: true,
  status: true,
  error: true,
  chunkSize: true,
  byteSize: true,
  createdAt: true,
  updatedAt: true,
  _count: { select: { chunks: true } },
} as const;

export interface KnowledgeDocumentView {
  id: number;
  title: string;
  sourceKind: SourceKind;
  sourceUrl: string | null;
  status: KnowledgeStatus;
  error: string | null;
  chunkSize: number;
  byteSize: number;
  chunkCount: number;
  createdAt: Date;
  updatedAt: Date;
}

type DocumentRow = Omit<KnowledgeDocumentView, 'chunkCount'> & { _count: { chunks: number } };
const view = ({ _count, ...doc }: DocumentRow): KnowledgeDocumentView => ({
  ...doc,
  chunkCount: _count.chunks,
});

export async function listDocuments(db: PrismaClient, projectId: number): Promise<KnowledgeDocumentView[]> {
  const rows = await db.knowledgeDocument.findMany({
    where: { projectId },
    orderBy: { id: 'desc' },
    select: documentSelect,
  });
  return rows.map(view);
}

export interface NewDocument {
  title?: string;
  kind: ContentKind;
  bytes: Uint8Array;
  chunkSize?: number;
}

/**
 * Stores a document to be indexed: parsed and chunked first (a file that cannot be read is
 * refused, nothing stored), then stored with its chunks, `indexing`, none embedded yet. The
 * `knowledge.index` job (index-job.ts) embeds it; `addDocument` does both in this process.
 */
export async function storeDocument(
  db: PrismaClient,
  projectId: number,
  input: NewDocument & { sourceKind?: SourceKind; sourceUrl?: string },
): Promise<KnowledgeDocumentView> {
  checkSize(input.bytes.byteLength);
  const chunkSize = parseInput(chunkSizeInput, input.chunkSize);
  const parsed = await parseDocument(input.kind, input.bytes);
  const title = parseInput(titleInput, input.title?.trim() || parsed.title || '');
  const chunks = chunkSections(parsed.sections, { maxChars: chunkSize });
  if (!chunks.length)
    throw invalid('The document has no text to index (a scanned PDF holds only images).', 'file');
  const document = await db.knowledgeDocument.create({
    data: {
      projectId,
      title,
      sourceKind: input.sourceKind ?? input.kind,
      sourceUrl: input.sourceUrl,
      chunkSize,
      byteSize: input.bytes.byteLength,
      chunks: {
        createMany: {
          data: chunks.map((c, position) => ({
            projectId,
            position,
            headingPath: c.headingPath,
            text: c.text,
          })),
        },
      },
    },
    select: { id: true },
  });
  return requireDocument(db, projectId, document.id);
}

/**
 * Adds a document and indexes it in this process (tests, the bench): `storeDocument`, then its
 * chunks embedded in batches. The document is returned `ready`, or `failed` with the embedder's
 * error (its chunks kept for a re-index). The app queues the indexing instead (index-job.ts).
 */
export async function addDocument(
  db: PrismaClient,
  projectId: number,
  input: NewDocument & { sourceKind?: SourceKind; sourceUrl?: string },
  embedder: KnowledgeEmbedder,
): Promise<KnowledgeDocumentView> {
  const document = await storeDocument(db, projectId, input);
  return embedDocument(db, projectId, document.id, embedder, { full: false });
}

/** Pasted text or Markdown, as a document to store. */
export const textDocument = (input: {
  title: string;
  kind: 'text' | 'markdown';
  text: string;
  chunkSize?: number;
}): NewDocument => ({ ...input, bytes: new TextEncoder().encode(input.text) });

/** A web page (HTML, PDF, Markdown or text), fetched through server/http, as a document to store. */
export async function urlDocument(input: {
  url: string;
  title?: string;
  chunkSize?: number;
}): Promise<NewDocument & { sourceKind: SourceKind; sourceUrl: string }> {
  const page = await fetchPage(input.url);
  return { ...input, kind: page.kind, bytes: page.bytes, sourceKind: 'url', sourceUrl: page.url };
}

/** Pasted text or Markdown, indexed in this process. */
export function addTextDocument(
  db: PrismaClient,
  projectId: number,
  input: { title: string; kind: 'text' | 'markdown'; text: string; chunkSize?: number },
  embedder: KnowledgeEmbedder,
): Promise<KnowledgeDocumentView> {
  return addDocument(db, projectId, textDocument(input), embedder);
}

/** A web page, indexed in this process. */
export async function addUrlDocument(
  db: PrismaClient,
  projectId: number,
  input: { url: string; title?: string; chunkSize?: number },
  embedder: KnowledgeEmbedder,
): Promise<KnowledgeDocumentView> {
  return addDocument(db, projectId, await urlDocument(input), embedder);
}

export function checkSize(bytes: number): void {
  if (bytes > MAX_DOCUMENT_BYTES)
    throw new DomainError(
      'limit',
      `The document is ${megabytes(bytes)}; at most ${megabytes(MAX_DOCUMENT_BYTES)} can be added. Split it into parts.`,
      'file',
    );
}

/**
 * Embeds the document's chunks again: those never embedded, edited since, or embedded by
 * another model than `embedder`'s; with `full`, every chunk.
 */
export function reindexDocument(
  db: PrismaClient,
  projectId: number,
  documentId: number,
  embedder: KnowledgeEmbedder,
  options: { full?: boolean } = {},
): Promise<KnowledgeDocumentView> {
  return embedDocument(db, projectId, documentId, embedder, { full: options.full ?? false });
}

/**
 * Marks a document `indexing` for a queued re-index (index-job.ts): it leaves the search until
 * the job has embedded it, and the Knowledge tab shows it in progress.
 */
export async function markIndexing(
  db: PrismaClient,
  projectId: number,
  documentId: number,
): Promise<KnowledgeDocumentView> {
  await db.$transaction(async (tx) => {
    const { count } = await tx.knowledgeDocument.updateMany({
      where: { id: documentId, projectId },
      data: { status: 'indexing', error: null, revision: { increment: 1 } },
    });
    if (!count) throw notFound(`No document ${documentId} in this project's knowledge base.`);
    await tx.project.update({ where: { id: projectId }, data: { knowledgeRevision: { increment: 1 } } });
  });
  return requireDocument(db, projectId, documentId);
}

/** Marks a document `failed` with `error`, in words for the project's admins. */
export async function markFailed(db: PrismaClient, projectId: number, documentId: number, error: string) {
  await db.$transaction([
    db.knowledgeDocument.updateMany({
      where: { id: documentId, projectId },
      data: { status: 'failed', error, revision: { increment: 1 } },
    }),
    db.project.update({ where: { id: projectId }, data: { knowledgeRevision: { increment: 1 } } }),
  ]);
}

/** Changes a chunk's text; only that chunk is embedded again. */
export async function editChunk(
  db: PrismaClient,
  projectId: number,
  chunkId: number,
  text: string,
  embedder: KnowledgeEmbedder,
): Promise<KnowledgeDocumentView> {
  const value = parseInput(chunkTextInput, text);
  const chunk = await db.knowledgeChunk.findFirst({
    where: { id: chunkId, projectId },
    select: { documentId: true },
  });
  if (!chunk) throw notFound(`No chunk ${chunkId} in this project's knowledge base; reload the document.`);
  // The trigger renews the chunk's full-text vector; the embedding waits for the embedder.
  await db.knowledgeChunk.update({
    where: { id: chunkId },
    data: { text: value, embedding: null, embeddingModel: null, dimensions: null },
  });
  return embedDocument(db, projectId, chunk.documentId, embedder, { full: false });
}

export async function deleteDocument(db: PrismaClient, projectId: number, documentId: number): Promise<void> {
  await db.$transaction(async (tx) => {
    const { count } = await tx.knowledgeDocument.deleteMany({ where: { id: documentId, projectId } });
    if (!count) throw notFound(`No document ${documentId} in this project's knowledge base.`);
    await tx.project.update({ where: { id: projectId }, data: { knowledgeRevision: { increment: 1 } } });
  });
}

export interface ChunkView {
  id: number;
  position: number;
  headingPath: string[];
  text: string;
  /** Whether its embedding is current (false after an edit whose re-embedding failed). */
  embedded: boolean;
}

export async function documentChunks(
  db: PrismaClient,
  projectId: number,
  documentId: number,
): Promise<{ document: KnowledgeDocumentView; chunks: ChunkView[] }> {
  const document = await requireDocument(db, projectId, documentId);
  const rows = await db.knowledgeChunk.findMany({
    where: { documentId, projectId },
    orderBy: { position: 'asc' },
    select: { id: true, position: true, headingPath: true, text: true, dimensions: true },
  });
  return {
    document,
    chunks: rows.map(({ dimensions, ...c }) => ({ ...c, embedded: dimensions !== null })),
  };
}

async function requireDocument(db: PrismaClient, projectId: number, documentId: number) {
  const row = await db.knowledgeDocument.findFirst({
    where: { id: documentId, projectId },
    select: documentSelect,
  });
  if (!row) throw notFound(`No document ${documentId} in this project's knowledge base.`);
  return view(row);
}

/** A chunk's text as embedded: its headings first, which place a short passage in context. */
const embeddingText = (c: { headingPath: string[]; text: string }) =>
  c.headingPath.length ? `${c.headingPath.join(' › ')}\n\n${c.text}` : c.text;

/**
 * Embeds what the document needs in batches of EMBED_BATCH and marks it `ready`; any error
 * (the embedder's, or vectors it should not have given) marks it `failed` with that error and
 * leaves every other document as it was. Bumps the project's and the document's knowledge
 * revisions either way. Stopped by `signal` (its job's claim lost), it writes no status.
 */
export async function embedDocument(
  db: PrismaClient,
  projectId: number,
  documentId: number,
  embedder: KnowledgeEmbedder,
  { full, signal }: { full: boolean; signal?: AbortSignal },
): Promise<KnowledgeDocumentView> {
  // The status stays as it is meanwhile (a new document is `indexing`): a ready document whose
  // edited chunk is embedded again stays searchable.
  await requireDocument(db, projectId, documentId);
  let error: string | null = null;
  try {
    const stale = await db.knowledgeChunk.findMany({
      where: {
        documentId,
        projectId,
        ...(full
          ? {}
          : {
              OR: [
                { embedding: null },
                { embeddingModel: null },
                { embeddingModel: { not: embedder.model } },
              ],
            }),
      },
      orderBy: { position: 'asc' },
      select: { id: true, headingPath: true, text: true },
    });
    let dimensions = await projectDimensions(db, projectId, documentId, embedder.model, full);
    for (let from = 0; from < stale.length; from += EMBED_BATCH) {
      signal?.throwIfAborted();
      const batch = stale.slice(from, from + EMBED_BATCH);
      const vectors = await embedder.embed(batch.map(embeddingText), { signal });
      signal?.throwIfAborted();
      dimensions ??= vectors[0]?.length ?? null;
      const rows = checkedVectors(vectors, batch.length, dimensions, embedder.model).map((v, i) => ({
        id: batch[i].id,
        embedding: Buffer.from(vectorBytes(v)).toString('base64'),
      }));
      await plainSql(db).run(setEmbeddings, {
        projectId,
        model: embedder.model,
        dimensions: dimensions ?? 0,
        rows: JSON.stringify(rows),
      });
    }
  } catch (cause) {
    // A job whose claim was taken away (its heartbeat went unseen) leaves the outcome to its retry.
    if (signal?.aborted) throw cause;
    error = `Indexing failed: ${cause instanceof Error ? cause.message : String(cause)}`;
  }
  await db.$transaction([
    db.knowledgeDocument.update({
      where: { id: documentId },
      data: { status: error ? 'failed' : 'ready', error, revision: { increment: 1 } },
    }),
    db.project.update({ where: { id: projectId }, data: { knowledgeRevision: { increment: 1 } } }),
  ]);
  return requireDocument(db, projectId, documentId);
}

/**
 * The dimension the project's other chunks of this model have: vectors of one model are
 * compared with each other, so a document's must match it.
 */
async function projectDimensions(
  db: PrismaClient,
  projectId: number,
  documentId: number,
  model: string,
  full: boolean,
) {
  const other = await db.knowledgeChunk.findFirst({
    where: { projectId, embeddingModel: model, dimensions: { not: null }, documentId: { not: documentId } },
    select: { dimensions: true },
  });
  if (other || full) return other?.dimensions ?? null;
  const own = await db.knowledgeChunk.findFirst({
    where: { documentId, embeddingModel: model, dimensions: { not: null } },
    select: { dimensions: true },
  });
  return own?.dimensions ?? null;
}

function checkedVectors(
  vectors: unknown,
  expected: number,
  dimensions: number | null,
  model: string,
): Float32Array[] {
  if (!Array.isArray(vectors) || vectors.length !== expected)
    throw new Error(
      `the embedding model "${model}" returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${expected} texts.`,
    );
  return vectors.map((v) => {
    if (!Array.isArray(v) || v.length !== dimensions)
      throw new Error(
        `the embedding model "${model}" returned a vector of ${Array.isArray(v) ? v.length : 'no'} numbers where this ` +
          `project's knowledge base has ${dimensions} for that model. Check the model's dimension setting; a model ` +
          'whose dimension changes must be named anew, so every document is embedded again.',
      );
    return normalise(v);
  });
}
