import { describeParameters, type LearnedParameters } from '@/lib/ai/chat-parameters';
import type { PrismaClient } from '@/server/db/client-type';
import { notFound } from '@/server/errors';
import { providerEndpoint } from './ai-call';
import { listProviders } from './ai-settings';
import { modelParameters, rememberModelParameters } from './model-parameters';
import { AiProviderError, chat, embed } from './provider';

export interface ProviderTestResult {
  chat: { ok: boolean; message: string };
  embeddings: { ok: boolean; message: string } | null;
}

/** The answer's tokens: the word asked for stops it, and a reasoning model thinks within them first. */
const TEST_MAX_TOKENS = 500;

/**
 * Settings, AI's "Test": one short chat call and, when an embedding model is set, one embedding,
 * so a wrong URL, model or key shows where it is set rather than in a client's conversation. It
 * says which token parameter and whether a temperature were sent, and keeps what a refusal
 * taught, as a client's call does. Not counted against the daily limit: it is the admin's, a few
 * tokens.
 */
export async function testProvider(
  db: PrismaClient,
  projectId: number,
  id: number,
): Promise<ProviderTestResult> {
  const provider = (await listProviders(db, projectId)).find((p) => p.id === id);
  if (!provider) throw notFound(`AI provider ${id} does not exist in this project`);
  const endpoint = await providerEndpoint(db, projectId, provider);
  if ('missing' in endpoint) return { chat: { ok: false, message: endpoint.missing }, embeddings: null };
  const timeoutMs = provider.timeoutSeconds * 1000;
  const attempt = async (call: () => Promise<string>) => {
    try {
      return { ok: true, message: await call() };
    } catch (error) {
      if (!(error instanceof AiProviderError)) throw error;
      return { ok: false, message: error.message };
    }
  };
  return {
    chat: await attempt(async () => {
      let taught: LearnedParameters | null = null;
      const answer = await chat(
        endpoint,
        {
          messages: [{ role: 'user', content: 'Reply with the word ok.' }],
          maxTokens: TEST_MAX_TOKENS,
          temperature: 0,
          parameters: await modelParameters(db, provider),
        },
        { timeoutMs, onParameters: (learnt) => (taught = learnt) },
      ).finally(async () => {
        if (taught) await rememberModelParameters(db, provider, taught);
      });
      const learned = taught !== null;
      const sent = `sent ${describeParameters(answer.parameters)}${learned ? ', learnt from the model’s refusal and kept for its calls' : ''}`;
      return `${provider.chatModel} answered "${answer.text.slice(0, 100)}" (${sent})`;
    }),
    embeddings: provider.embeddingModel
      ? await attempt(async () => {
          const { vectors } = await embed(endpoint, ['test'], {
            timeoutMs,
            expectedDimensions: provider.embeddingDimensions ?? undefined,
          });
          return `${provider.embeddingModel} gave a vector of ${vectors[0]?.length ?? 0} dimensions`;
        })
      : null,
  };
}
