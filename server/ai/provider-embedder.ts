import type { PrismaClient } from '@/server/db/client-type';
import type { KnowledgeEmbedder } from '@/server/knowledge/embedder';
import { providerEndpoint } from './ai-call';
import type { ProviderView } from './ai-settings';
import { AiProviderError, embed } from './provider';
import { recordUsage } from './usage';

/** Vectors of one model and size are comparable; the model's name says both. */
export const embeddingModelName = (provider: ProviderView) =>
  provider.embeddingDimensions
    ? `${provider.embeddingModel}@${provider.embeddingDimensions}`
    : provider.embeddingModel;

/**
 * A provider's embedding model as the knowledge base uses it (indexing, search): its tokens
 * counted in the project's daily usage, its failures as errors that say what to fix.
 */
export async function providerEmbedder(
  db: PrismaClient,
  project: { id: number; timeZone: string },
  provider: ProviderView,
): Promise<KnowledgeEmbedder | { missing: string }> {
  if (!provider.embeddingModel)
    return {
      missing: `AI provider "${provider.name}" has no embedding model: set one in Settings, AI to index and search the knowledge base`,
    };
  const endpoint = await providerEndpoint(db, project.id, provider);
  if ('missing' in endpoint) return endpoint;
  return {
    model: embeddingModelName(provider),
    async embed(texts, options) {
      try {
        const { vectors, usage } = await embed(endpoint, texts, {
          timeoutMs: provider.timeoutSeconds * 1000,
          signal: options?.signal,
          expectedDimensions: provider.embeddingDimensions ?? undefined,
        });
        await recordUsage(db, project, new Date(), {
          inputTokens: usage.tokens,
          outputTokens: 0,
          estimated: usage.estimated,
        });
        return vectors;
      } catch (error) {
        if (error instanceof AiProviderError) throw new Error(error.message);
        throw error;
      }
    },
  };
}
