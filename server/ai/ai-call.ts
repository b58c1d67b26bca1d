import type { ChatTurn } from '@/lib/ai/prompt';
import type { Plan } from '@/lib/formula';
import type { PrismaClient } from '@/server/db/client-type';
import { loadSecrets } from '@/server/secrets/secret-service';
import { findProvider, type ProviderView } from './ai-settings';
import { type AiEndpoint, AiProviderError, type AiTool, chat, type ToolCall } from './provider';
import { recordUsage, usageToday } from './usage';

/**
 * One AI call of the engine (a block's AI step, its arrow choice, the assistant): the plan, the
 * provider, the daily limit, the API key from the project's secrets, the call cut at its
 * timeout, and the tokens counted. It holds no connection or transaction while the provider
 * thinks (docs/architecture.md, "AI calls"). Never throws: a failure is an outcome the engine
 * logs and follows to the fallback.
 */

export interface AiCallRequest {
  provider: string;
  system: string;
  messages: ChatTurn[];
  temperature: number;
  maxTokens: number;
  jsonSchema?: Record<string, unknown>;
  tools?: AiTool[];
}

export type AiCallOutcome =
  | {
      ok: true;
      text: string;
      json?: unknown;
      toolCalls?: ToolCall[];
      provider: string;
      model: string;
      usage: { inputTokens: number; outputTokens: number };
      ms: number;
    }
  | {
      ok: false;
      /** plan, provider, limit, or the provider error's kind (timeout, auth, rate_limited…). */
      reason: string;
      message: string;
      provider?: string;
    };

export interface AiCallContext {
  db: PrismaClient;
  project: { id: number; plan: Plan; timeZone: string };
  now: () => Date;
  /** The most the call may take, ms: the event's lease bounds it (docs/ai.md, "Time"). */
  maxMs: number;
  signal?: AbortSignal;
  onText?: (delta: string) => void;
}

export const AI_PLAN_MESSAGE = (plan: Plan) =>
  `AI features need the AI plan; this project is on the ${plan} plan (change it in Settings, Plan)`;

/** The provider's endpoint with its API key opened from the project's secrets. */
export async function providerEndpoint(
  db: PrismaClient,
  projectId: number,
  provider: ProviderView,
): Promise<AiEndpoint | { missing: string }> {
  let apiKey = '';
  if (provider.apiKeySecret) {
    const secrets = await loadSecrets(db, projectId);
    const value = secrets.get(provider.apiKeySecret);
    if (value === undefined)
      return {
        missing: `the API key secret ${provider.apiKeySecret} of AI provider "${provider.name}" is not set: add it in Settings, Secrets`,
      };
    apiKey = value;
  }
  return {
    baseUrl: provider.baseUrl,
    apiKey,
    chatModel: provider.chatModel,
    embeddingModel: provider.embeddingModel || undefined,
    embeddingDimensions: provider.embeddingDimensions ?? undefined,
  };
}

export async function callAi(ctx: AiCallContext, request: AiCallRequest): Promise<AiCallOutcome> {
  const { db, project } = ctx;
  if (project.plan !== 'ai') return { ok: false, reason: 'plan', message: AI_PLAN_MESSAGE(project.plan) };
  const provider = await findProvider(db, project.id, request.provider);
  if ('missing' in provider) return { ok: false, reason: 'provider', message: provider.missing };
  const { aiDailyTokenLimit } = await db.project.findUniqueOrThrow({
    where: { id: project.id },
    select: { aiDailyTokenLimit: true },
  });
  if (aiDailyTokenLimit > 0) {
    const today = await usageToday(db, project, ctx.now());
    if (today.inputTokens + today.outputTokens >= aiDailyTokenLimit)
      return {
        ok: false,
        reason: 'limit',
        provider: provider.name,
        message: `the project's daily AI limit of ${aiDailyTokenLimit} tokens is reached (${today.inputTokens + today.outputTokens} spent on ${today.day}): raise it in Settings, AI, or wait for tomorrow`,
      };
  }
  const endpoint = await providerEndpoint(db, project.id, provider);
  if ('missing' in endpoint)
    return { ok: false, reason: 'provider', provider: provider.name, message: endpoint.missing };

  const started = performance.now();
  const timeoutMs = Math.max(1, Math.floor(Math.min(provider.timeoutSeconds * 1000, ctx.maxMs)));
  try {
    const answer = await chat(
      endpoint,
      {
        system: request.system || undefined,
        messages: request.messages,
        temperature: request.temperature,
        maxTokens: request.maxTokens,
        jsonSchema: request.jsonSchema,
        tools: request.tools,
      },
      { timeoutMs, signal: ctx.signal, onText: ctx.onText },
    );
    await recordUsage(db, project, ctx.now(), answer.usage);
    return {
      ok: true,
      text: answer.text,
      json: answer.json,
      toolCalls: answer.toolCalls,
      provider: provider.name,
      model: provider.chatModel,
      usage: answer.usage,
      ms: Math.round(performance.now() - started),
    };
  } catch (error) {
    if (!(error instanceof AiProviderError)) throw error;
    return { ok: false, reason: error.kind, provider: provider.name, message: error.message };
  }
}
