import type { Db } from '@/server/db/client-type';
import { DomainError } from '@/server/errors';

/**
 * What indexing and search need from an embedding provider: texts in, one vector per text out.
 * `model` names the model (and its settings, e.g. a reduced dimension): chunks embedded by
 * another model are embedded again at their document's next re-index, and are never compared
 * with this one's vectors.
 */
export interface KnowledgeEmbedder {
  model: string;
  embed(texts: string[]): Promise<number[][]>;
}

/**
 * THE SEAM for the AI provider settings (issue 35): the embedder a project's knowledge base
 * uses. Until those settings exist every project answers that none is configured; then this
 * builds one from the project's provider with the embeddings client (`embed(endpoint, texts,
 * opts)`), e.g. `{ model, embed: async (texts) => (await embed(endpoint, texts, opts)).vectors }`.
 */
export async function projectEmbedder(_db: Db, _projectId: number): Promise<KnowledgeEmbedder> {
  throw new DomainError(
    'invalid',
    'No AI provider is configured for this project, so its knowledge base cannot be indexed or searched. ' +
      "Add an AI provider with an embedding model in the project's AI settings first.",
    'provider',
  );
}
