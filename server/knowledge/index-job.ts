import type { Job } from 'pg-boss';
import { z } from 'zod';
import type { SourceKind } from '@/lib/knowledge/limits';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { DomainError } from '@/server/errors';
import { getBoss } from '@/server/jobs/boss';
import { defineJob, enqueue } from '@/server/jobs/jobs';
import {
  embedDocument,
  type KnowledgeDocumentView,
  markFailed,
  markIndexing,
  type NewDocument,
  storeDocument,
} from './documents';
import { projectEmbedder } from './embedder';

/**
 * Indexing as a durable job (docs/knowledge-base.md, "Indexing"): adding a document stores it
 * `indexing` and returns at once; the `knowledge.index` job embeds it through the project's
 * provider and marks it `ready` or `failed`. A worker that dies meanwhile stops its heartbeat:
 * the job is retried, and embeds only what is still stale.
 */

const indexJobData = z.object({
  projectId: z.number().int().positive(),
  documentId: z.number().int().positive(),
  full: z.boolean(),
});
export type IndexJobData = z.infer<typeof indexJobData>;

/** Attempts after the first: a worker that died, or a database that went away. */
export const INDEX_RETRIES = 3;

/** The provider's failures are the document's `failed` status, not a retry: Re-index retries. */
async function runIndexJob(data: IndexJobData, job: Job<IndexJobData>) {
  const { projectId, documentId, full } = indexJobData.parse(data);
  const db = (await getDb()) as PrismaClient;
  const document = await db.knowledgeDocument.findFirst({
    where: { id: documentId, projectId },
    select: { status: true },
  });
  // Deleted meanwhile, or finished by an attempt whose completion was lost.
  if (document?.status !== 'indexing') return;
  let embedder: Awaited<ReturnType<typeof projectEmbedder>>;
  try {
    embedder = await projectEmbedder(db, projectId);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return markFailed(db, projectId, documentId, `Indexing failed: ${error.message}`);
  }
  await embedDocument(db, projectId, documentId, embedder, { full, signal: job.signal });
}

/** Where a job goes once its retries are spent: the document is failed, never left `indexing`. */
export const knowledgeIndexGaveUpJob = defineJob<IndexJobData>({
  name: 'knowledge.index_gave_up',
  async handle(data) {
    const { projectId, documentId } = indexJobData.parse(data);
    const db = (await getDb()) as PrismaClient;
    const document = await db.knowledgeDocument.findFirst({
      where: { id: documentId, projectId },
      select: { status: true },
    });
    if (document?.status !== 'indexing') return;
    await markFailed(
      db,
      projectId,
      documentId,
      `Indexing stopped after ${INDEX_RETRIES + 1} attempts (the worker stopped or the database was unreachable); Re-index tries again.`,
    );
  },
});

/**
 * A project's documents are indexed one at a time (its provider's rate limits), two projects'
 * side by side in each worker.
 */
export const knowledgeIndexJob = defineJob<IndexJobData>({
  name: 'knowledge.index',
  batchSize: 2,
  groups: { of: (data) => `project-${data.projectId}`, perGroup: 1, workers: 2 },
  deadLetter: knowledgeIndexGaveUpJob,
  handle: runIndexJob,
});

const queueIndexing = (data: IndexJobData) =>
  enqueue(knowledgeIndexJob, data, { retryLimit: INDEX_RETRIES, retryDelay: 5 });

/** Stores a document `indexing` and queues its indexing; returns at once. */
export async function queueDocument(
  db: PrismaClient,
  projectId: number,
  input: NewDocument & { sourceKind?: SourceKind; sourceUrl?: string },
): Promise<KnowledgeDocumentView> {
  const document = await storeDocument(db, projectId, input);
  await queueIndexing({ projectId, documentId: document.id, full: false });
  return document;
}

/**
 * Queues a re-index: what is stale (never embedded, edited, another model), or with `full`
 * every chunk. The document is `indexing` until the job ends.
 */
export async function queueReindex(
  db: PrismaClient,
  projectId: number,
  documentId: number,
  options: { full?: boolean } = {},
): Promise<KnowledgeDocumentView> {
  const document = await markIndexing(db, projectId, documentId);
  await queueIndexing({ projectId, documentId, full: options.full ?? false });
  return document;
}

/**
 * At a worker's start: queues the indexing of every document left `indexing` with no job to
 * finish it (its process stopped between storing it and queueing the job, or the queue could not
 * be reached). A document whose job waits, runs or will be retried is left to that job.
 */
export async function resumeIndexing(db: PrismaClient): Promise<number> {
  const stuck = await db.knowledgeDocument.findMany({
    where: { status: 'indexing' },
    select: { id: true, projectId: true },
    take: 10_000,
  });
  const boss = await getBoss();
  let queued = 0;
  for (const { id: documentId, projectId } of stuck) {
    const jobs = await boss.findJobs<IndexJobData>(knowledgeIndexJob.name, {
      data: { documentId, projectId },
    });
    if (jobs.some((job) => job.state === 'created' || job.state === 'retry' || job.state === 'active'))
      continue;
    await queueIndexing({ projectId, documentId, full: false });
    queued++;
  }
  return queued;
}
