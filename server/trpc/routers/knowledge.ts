import { z } from 'zod';
import { MAX_DOCUMENT_BYTES, MAX_SEARCH_LIMIT, megabytes } from '@/lib/knowledge/limits';
import {
  chunkSizeInput,
  chunkTextInput,
  deleteDocument,
  documentChunks,
  editChunk,
  listDocuments,
  textDocument,
  titleInput,
  urlDocument,
} from '@/server/knowledge/documents';
import { embedderMissing, projectEmbedder } from '@/server/knowledge/embedder';
import { queueDocument, queueReindex } from '@/server/knowledge/index-job';
import { searchWithEmbedder } from '@/server/knowledge/search';
import { createTRPCRouter, projectManagerProcedure, projectProcedure } from '../init';

const documentId = z.number().int().positive();

/**
 * The knowledge base (docs/knowledge-base.md): every member reads documents, chunks and the
 * test search; owners and admins add, edit, re-index and delete. Indexing and search need the
 * project's embedder (server/knowledge/embedder.ts): adding and re-indexing are refused at once
 * without one, and otherwise return at once, the `knowledge.index` job embedding; files are uploaded by their own route
 * (app/api/projects/[projectId]/knowledge/upload), streamed against the size cap.
 */
export const knowledgeRouter = createTRPCRouter({
  documents: projectProcedure.query(({ ctx }) => listDocuments(ctx.db, ctx.projectId)),
  /** Why documents cannot be indexed and searched now, or null: the tab says so before anyone adds one. */
  missing: projectProcedure.query(({ ctx }) => embedderMissing(ctx.db, ctx.projectId)),
  chunks: projectProcedure
    .input(z.object({ documentId }))
    .query(({ ctx, input }) => documentChunks(ctx.db, ctx.projectId, input.documentId)),

  /** Pasted text or Markdown. */
  addText: projectManagerProcedure
    .input(
      z.object({
        title: titleInput,
        kind: z.enum(['text', 'markdown']),
        text: z
          .string()
          .min(1, 'Paste some text.')
          .max(
            MAX_DOCUMENT_BYTES,
            `At most ${megabytes(MAX_DOCUMENT_BYTES)} of text; upload a file in parts.`,
          ),
        chunkSize: chunkSizeInput.optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await projectEmbedder(ctx.db, ctx.projectId);
      return queueDocument(ctx.db, ctx.projectId, textDocument(input));
    }),
  addUrl: projectManagerProcedure
    .input(
      z.object({
        url: z.url({
          protocol: /^https?$/,
          error: "Give the page's full address, starting with https:// or http://.",
        }),
        title: titleInput.optional(),
        chunkSize: chunkSizeInput.optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await projectEmbedder(ctx.db, ctx.projectId);
      return queueDocument(ctx.db, ctx.projectId, await urlDocument(input));
    }),
  /** A chunk's new text; only that chunk is embedded again. */
  editChunk: projectManagerProcedure
    .input(z.object({ chunkId: z.number().int().positive(), text: chunkTextInput }))
    .mutation(async ({ ctx, input }) =>
      editChunk(
        ctx.db,
        ctx.projectId,
        input.chunkId,
        input.text,
        await projectEmbedder(ctx.db, ctx.projectId),
      ),
    ),
  /** Embeds what is stale (failed, edited, another model); with `full`, every chunk. */
  reindex: projectManagerProcedure
    .input(z.object({ documentId, full: z.boolean().default(false) }))
    .mutation(async ({ ctx, input }) => {
      await projectEmbedder(ctx.db, ctx.projectId);
      return queueReindex(ctx.db, ctx.projectId, input.documentId, { full: input.full });
    }),
  delete: projectManagerProcedure
    .input(z.object({ documentId }))
    .mutation(({ ctx, input }) => deleteDocument(ctx.db, ctx.projectId, input.documentId)),

  /** What the assistant would read for a question: the best chunks with their scores. */
  testSearch: projectProcedure
    .input(
      z.object({
        query: z.string().trim().min(1, 'Type a question.').max(2000, 'At most 2,000 characters.'),
        limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(5),
      }),
    )
    .query(async ({ ctx, input }) =>
      searchWithEmbedder(ctx.db, ctx.projectId, input.query, await projectEmbedder(ctx.db, ctx.projectId), {
        limit: input.limit,
      }),
    ),
});
