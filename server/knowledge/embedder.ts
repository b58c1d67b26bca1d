import { AI_PLAN_MESSAGE } from '@/server/ai/ai-call';
import { findProvider } from '@/server/ai/ai-settings';
import { providerEmbedder } from '@/server/ai/provider-embedder';
import type { PrismaClient } from '@/server/db/client-type';
import { DomainError } from '@/server/errors';

/**
 * What indexing and search need from an embedding provider: texts in, one vector per text out.
 * `model` names the model (and its settings, e.g. a reduced dimension): chunks embedded by
 * another model are embedded again at their document's next re-index, and are never compared
 * with this one's vectors.
 */
export interface KnowledgeEmbedder {
  model: string;
  /** `signal` stops a request under way (an indexing job whose claim was taken away). */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}

/**
 * The embedder of a project's knowledge base: its default AI provider's embedding model
 * (Settings, AI; docs/ai.md), on the AI plan.
 */
export async function projectEmbedder(db: PrismaClient, projectId: number): Promise<KnowledgeEmbedder> {
  const project = await db.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { id: true, plan: true, timeZone: true },
  });
  if (project.plan !== 'ai') throw new DomainError('invalid', `${AI_PLAN_MESSAGE(project.plan)}.`, 'plan');
  const provider = await findProvider(db, projectId, '');
  if ('missing' in provider)
    throw new DomainError(
      'invalid',
      'No AI provider is configured for this project, so its knowledge base cannot be indexed or searched: add one with an embedding model in Settings, AI.',
      'provider',
    );
  const embedder = await providerEmbedder(db, project, provider);
  if ('missing' in embedder) throw new DomainError('invalid', embedder.missing, 'provider');
  return embedder;
}

/**
 * Why the project's documents cannot be indexed and searched now (the plan, the provider or
 * its embedding model), in the words adding one would be refused with, as a sentence, and the
 * setting to change; null when they can.
 */
export async function embedderMissing(
  db: PrismaClient,
  projectId: number,
): Promise<{ reason: string; setting: 'plan' | 'provider' } | null> {
  try {
    await projectEmbedder(db, projectId);
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return {
      reason: error.message.replace(/\.?$/, '.'),
      setting: error.field === 'plan' ? 'plan' : 'provider',
    };
  }
}
