import {
  type ChatParameters,
  chatParameters,
  type LearnedParameters,
  TOKEN_PARAMETERS,
} from '@/lib/ai/chat-parameters';
import type { PrismaClient } from '@/server/db/client-type';
import type { ProviderView } from './ai-settings';

/**
 * What a provider's chat model takes (lib/ai/chat-parameters.ts), as its settings say and as
 * its refusals taught, kept in the database: every instance, and this one after a restart,
 * sends it right the first time.
 */
export async function modelParameters(db: PrismaClient, provider: ProviderView): Promise<ChatParameters> {
  const row = await db.aiModelParameters.findUnique({
    where: { providerId_model: { providerId: provider.id, model: provider.chatModel } },
  });
  const tokenParameter = TOKEN_PARAMETERS.find((p) => p === row?.tokenParameter);
  return chatParameters(
    provider,
    provider.chatModel,
    row && tokenParameter ? { tokenParameter, temperature: row.temperature, system: row.system } : null,
  );
}

export async function rememberModelParameters(
  db: PrismaClient,
  provider: ProviderView,
  learned: LearnedParameters,
): Promise<void> {
  const data = { ...learned, learnedAt: new Date() };
  await db.aiModelParameters.upsert({
    where: { providerId_model: { providerId: provider.id, model: provider.chatModel } },
    create: { providerId: provider.id, model: provider.chatModel, ...data },
    update: data,
  });
}
