import type { KnowledgeExcerpt } from '@/lib/ai/prompt';
import type { RunContext } from '@/server/engine/run-context';
import { searchKnowledge } from '@/server/knowledge/search';
import { findProvider } from './ai-settings';
import { providerEmbedder } from './provider-embedder';

/** Chunks an AI call is given: the best few are enough, and each costs prompt tokens. */
const EXCERPTS = 5;

/**
 * The knowledge base's chunks nearest to the client's question (docs/ai.md, "The knowledge
 * base"), logged so the simulator cites them. A failure is logged and the call goes on without.
 */
export async function knowledgeExcerpts(
  run: RunContext,
  providerName: string,
  query: string,
  where: Record<string, unknown>,
): Promise<KnowledgeExcerpt[]> {
  if (run.project.plan !== 'ai' || !query.trim()) return [];
  const skipped = (message: string) => {
    run.note('ai_error', {
      ...where,
      reason: 'knowledge',
      message: `the knowledge base was not searched: ${message}`,
    });
    return [];
  };
  const provider = await findProvider(run.db, run.project.id, providerName);
  if ('missing' in provider) return skipped(provider.missing);
  const embedder = await providerEmbedder(run.db, run.project, provider);
  if ('missing' in embedder) return skipped(embedder.missing);
  let vector: number[] | undefined;
  try {
    [vector] = await embedder.embed([query]);
  } catch (error) {
    return skipped((error as Error).message);
  }
  if (!vector) return skipped('the embedding model gave no vector');
  const hits = await searchKnowledge(run.db, run.project.id, query, vector, {
    limit: EXCERPTS,
    model: embedder.model,
  });
  run.note('knowledge', {
    ...where,
    chunks: hits.map((h) => ({
      chunkId: h.chunkId,
      documentId: h.documentId,
      title: h.title,
      score: h.score,
    })),
  });
  return hits.map((h) => ({ chunkId: h.chunkId, title: h.title, text: h.text }));
}
