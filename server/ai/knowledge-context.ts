import type { KnowledgeExcerpt } from '@/lib/ai/prompt';
import type { RunState } from '@/server/engine/run-state';
import { searchKnowledge } from '@/server/knowledge/knowledge-search';
import { providerEndpoint } from './ai-call';
import { findProvider } from './ai-settings';
import { AiProviderError, embed } from './provider';
import { recordUsage } from './usage';

/** Chunks an AI call is given: the best few are enough, and each costs prompt tokens. */
const EXCERPTS = 5;

/**
 * The knowledge base's chunks nearest to the client's question (docs/ai.md, "The knowledge
 * base"), logged so the simulator cites them. A failure is logged and the call goes on without.
 */
export async function knowledgeExcerpts(
  run: RunState,
  providerName: string,
  query: string,
  where: Record<string, unknown>,
): Promise<KnowledgeExcerpt[]> {
  if (run.project.plan !== 'ai' || !query.trim()) return [];
  const skipped = (message: string) => {
    run.note('ai_error', { ...where, reason: 'knowledge', message });
    return [];
  };
  const provider = await findProvider(run.db, run.project.id, providerName);
  if ('missing' in provider) return skipped(provider.missing);
  if (!provider.embeddingModel)
    return skipped(
      `AI provider "${provider.name}" has no embedding model: set one in Settings, AI to search the knowledge base`,
    );
  const endpoint = await providerEndpoint(run.db, run.project.id, provider);
  if ('missing' in endpoint) return skipped(endpoint.missing);
  let vector: number[];
  try {
    const embedded = await embed(endpoint, [query], { timeoutMs: provider.timeoutSeconds * 1000 });
    vector = embedded.vectors[0];
    await recordUsage(run.db, run.project, run.deps.now(), {
      inputTokens: embedded.usage.tokens,
      outputTokens: 0,
    });
  } catch (error) {
    if (!(error instanceof AiProviderError)) throw error;
    return skipped(`the knowledge base was not searched: ${error.message}`);
  }
  const hits = await searchKnowledge(run.db, run.project.id, query, vector, { limit: EXCERPTS });
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
