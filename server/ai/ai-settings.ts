import { type AssistantSettings, assistantSettingsSchema } from '@/lib/ai/assistant';
import { temperatureSettingSchema, tokenParameterSettingSchema } from '@/lib/ai/chat-parameters';
import { type ProviderSettings, providerSettingsSchema } from '@/lib/ai/provider-settings';
import type { PrismaClient } from '@/server/db/client-type';
import { DomainError, invalid, notFound, parseInput } from '@/server/errors';

/**
 * A project's AI settings (Settings, AI; docs/ai.md): its OpenAI-compatible providers, its
 * assistants and its daily token limit. The providers' API keys are project secrets, named here.
 */

export const MAX_PROVIDERS = 10;
export const MAX_ASSISTANTS = 20;

export interface ProviderView extends ProviderSettings {
  id: number;
}

const toProvider = (
  row: { id: number; tokenParameter: string; temperature: string } & Omit<
    ProviderSettings,
    'tokenParameter' | 'temperature'
  >,
): ProviderView => ({
  id: row.id,
  name: row.name,
  baseUrl: row.baseUrl,
  chatModel: row.chatModel,
  embeddingModel: row.embeddingModel,
  embeddingDimensions: row.embeddingDimensions,
  apiKeySecret: row.apiKeySecret,
  timeoutSeconds: row.timeoutSeconds,
  requestsPerMinute: row.requestsPerMinute,
  tokenParameter: tokenParameterSettingSchema.catch('auto').parse(row.tokenParameter),
  temperature: temperatureSettingSchema.catch('auto').parse(row.temperature),
  isDefault: row.isDefault,
});

export async function listProviders(db: PrismaClient, projectId: number): Promise<ProviderView[]> {
  const rows = await db.aiProvider.findMany({ where: { projectId }, orderBy: { id: 'asc' } });
  return rows.map(toProvider);
}

/**
 * The provider a block or an assistant names, or the project's default (the one marked, else the
 * first); null with the reason when there is none.
 */
export async function findProvider(
  db: PrismaClient,
  projectId: number,
  name: string,
): Promise<ProviderView | { missing: string }> {
  const rows = await listProviders(db, projectId);
  if (name) {
    const named = rows.find((p) => p.name === name);
    return (
      named ?? { missing: `AI provider "${name}" does not exist: add it in Settings, AI, or pick another` }
    );
  }
  const chosen = rows.find((p) => p.isDefault) ?? rows[0];
  return chosen ?? { missing: 'no AI provider is set: add one in Settings, AI' };
}

/** Creates (no id) or replaces a provider; marking one default unmarks the others. */
export async function saveProvider(
  db: PrismaClient,
  projectId: number,
  id: number | null,
  input: unknown,
): Promise<ProviderView> {
  const settings = parseInput(providerSettingsSchema, input);
  return db.$transaction(async (tx) => {
    const others = await tx.aiProvider.findMany({ where: { projectId, NOT: id ? { id } : undefined } });
    if (id !== null && !(await tx.aiProvider.findFirst({ where: { id, projectId } })))
      throw notFound(`AI provider ${id} does not exist in this project`);
    if (id === null && others.length >= MAX_PROVIDERS)
      throw invalid(`A project has at most ${MAX_PROVIDERS} AI providers: delete one first`);
    if (others.some((p) => p.name === settings.name))
      throw invalid(`An AI provider named "${settings.name}" already exists: choose another name`, 'name');
    if (settings.isDefault)
      await tx.aiProvider.updateMany({ where: { projectId, isDefault: true }, data: { isDefault: false } });
    const row =
      id === null
        ? await tx.aiProvider.create({ data: { projectId, ...settings } })
        : await tx.aiProvider.update({ where: { id }, data: settings });
    return toProvider(row);
  });
}

export async function deleteProvider(db: PrismaClient, projectId: number, id: number): Promise<void> {
  const { count } = await db.aiProvider.deleteMany({ where: { id, projectId } });
  if (!count) throw notFound(`AI provider ${id} does not exist in this project`);
}

export interface AssistantView {
  id: number;
  settings: AssistantSettings;
}

export async function listAssistants(db: PrismaClient, projectId: number): Promise<AssistantView[]> {
  const rows = await db.aiAssistant.findMany({ where: { projectId }, orderBy: { id: 'asc' } });
  // Stored through the schema; read through it too, so a later default fills an older row.
  return rows.map((r) => ({ id: r.id, settings: assistantSettingsSchema.parse(r.settings) }));
}

export async function saveAssistant(
  db: PrismaClient,
  projectId: number,
  id: number | null,
  input: unknown,
): Promise<AssistantView> {
  const settings = parseInput(assistantSettingsSchema, input);
  if (id === null) {
    if ((await db.aiAssistant.count({ where: { projectId } })) >= MAX_ASSISTANTS)
      throw invalid(`A project has at most ${MAX_ASSISTANTS} assistants: delete one first`);
    const row = await db.aiAssistant.create({ data: { projectId, settings } });
    return { id: row.id, settings };
  }
  const { count } = await db.aiAssistant.updateMany({ where: { id, projectId }, data: { settings } });
  if (!count) throw notFound(`Assistant ${id} does not exist in this project`);
  return { id, settings };
}

export async function deleteAssistant(db: PrismaClient, projectId: number, id: number): Promise<void> {
  const { count } = await db.aiAssistant.deleteMany({ where: { id, projectId } });
  if (!count) throw notFound(`Assistant ${id} does not exist in this project`);
}

export async function setDailyTokenLimit(db: PrismaClient, projectId: number, limit: number): Promise<void> {
  if (!Number.isInteger(limit) || limit < 0)
    throw new DomainError(
      'invalid',
      'dailyTokenLimit: a whole number of tokens, 0 for no limit',
      'dailyTokenLimit',
    );
  await db.project.update({ where: { id: projectId }, data: { aiDailyTokenLimit: limit } });
}
