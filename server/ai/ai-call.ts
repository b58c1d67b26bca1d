import { setTimeout as sleep } from 'node:timers/promises';
import { chatParameters, type LearnedParameters } from '@/lib/ai/chat-parameters';
import type { ChatTurn } from '@/lib/ai/prompt';
import type { Plan } from '@/lib/formula';
import type { PrismaClient } from '@/server/db/client-type';
import { metrics } from '@/server/metrics/metrics';
import { takeRate } from '@/server/rate-limit';
import { loadSecrets } from '@/server/secrets/secret-service';
import { findProvider, type ProviderView } from './ai-settings';
import { modelParameters, rememberModelParameters } from './model-parameters';
import {
  type AiEndpoint,
  AiProviderError,
  type AiTool,
  type ChatAnswer,
  chat,
  type ToolCall,
} from './provider';
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
      usage: ChatAnswer['usage'];
      /** What the model was asked with, and whether its refusal taught it in this call. */
      parameters: LearnedParameters;
      learned: boolean;
      ms: number;
      /** More than 1 when a 429, a 5xx or a dropped connection was tried again. */
      attempts: number;
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
  const outcome = await callProvider(ctx, request);
  const m = metrics();
  m.aiCalls.inc({ outcome: outcome.ok ? 'ok' : outcome.reason });
  if (outcome.ok) {
    m.aiTokens.inc({ type: 'prompt' }, outcome.usage.inputTokens);
    m.aiTokens.inc({ type: 'completion' }, outcome.usage.outputTokens);
  }
  return outcome;
}

async function callProvider(ctx: AiCallContext, request: AiCallRequest): Promise<AiCallOutcome> {
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
  const deadline = started + Math.max(1, Math.min(provider.timeoutSeconds * 1000, ctx.maxMs));
  let streamed = false;
  const onText = ctx.onText
    ? (delta: string) => {
        streamed = true;
        ctx.onText?.(delta);
      }
    : undefined;
  let parameters = await modelParameters(db, provider);
  // A refusal teaches what the model takes: kept once the attempt is over, whatever its end.
  let learned = false;
  let toKeep: LearnedParameters | null = null;
  const onParameters = (taught: LearnedParameters) => {
    learned = true;
    toKeep = taught;
    parameters = chatParameters(provider, provider.chatModel, taught);
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await takeProviderRate(db, project.id, provider, deadline, ctx.signal);
      const answer = await chat(
        endpoint,
        {
          system: request.system || undefined,
          messages: request.messages,
          temperature: request.temperature,
          maxTokens: request.maxTokens,
          parameters,
          jsonSchema: request.jsonSchema,
          tools: request.tools,
        },
        {
          timeoutMs: Math.max(1, Math.floor(deadline - performance.now())),
          signal: ctx.signal,
          onText,
          onParameters,
        },
      ).finally(async () => {
        if (toKeep) await rememberModelParameters(db, provider, toKeep);
        toKeep = null;
      });
      await recordUsage(db, project, ctx.now(), answer.usage);
      return {
        ok: true,
        text: answer.text,
        json: answer.json,
        toolCalls: answer.toolCalls,
        provider: provider.name,
        model: provider.chatModel,
        usage: answer.usage,
        parameters: answer.parameters,
        learned,
        ms: Math.round(performance.now() - started),
        attempts: attempt,
      };
    } catch (error) {
      if (!(error instanceof AiProviderError)) throw error;
      // Tried again only while the time allows and nothing was shown yet: a client who saw half
      // an answer streamed would see it start over.
      const wait = retryWait(error, attempt);
      if (wait !== null && !streamed && performance.now() + wait + MIN_ATTEMPT_MS < deadline) {
        await sleep(wait, undefined, { signal: ctx.signal }).catch(() => {});
        if (!ctx.signal?.aborted) continue;
      }
      const tries = attempt > 1 ? ` (after ${attempt} attempts)` : '';
      return { ok: false, reason: error.kind, provider: provider.name, message: `${error.message}${tries}` };
    }
  }
}

/** Attempts at most, a failure that may pass included. */
const MAX_ATTEMPTS = 3;
/** Not worth trying again with less time than this left. */
const MIN_ATTEMPT_MS = 1000;

/**
 * How long to wait before trying again, ms, or null: not again. A 429 waits what the provider
 * asks (its retry-after, seconds or a date; else as a 5xx), and one for no quota left is final;
 * a 5xx or a dropped connection waits 0.5 s, then 1 s, give or take a fifth so that calls failed
 * together do not come back together.
 */
function retryWait(error: AiProviderError, attempt: number): number | null {
  if (!error.transient || attempt >= MAX_ATTEMPTS) return null;
  if (error.retryAfterSeconds !== undefined) return error.retryAfterSeconds * 1000;
  return 500 * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4);
}

/**
 * Counts the call against the provider's requests a minute, one window for every instance
 * (server/rate-limit.ts); over it, waits for the next window while the call's time allows, else
 * fails as the provider's own 429 would.
 */
async function takeProviderRate(
  db: PrismaClient,
  projectId: number,
  provider: ProviderView,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (provider.requestsPerMinute <= 0) return;
  const limits = [{ key: `ai:${projectId}:${provider.id}`, perMinute: provider.requestsPerMinute }];
  for (;;) {
    const { allowed, retryAfter } = await takeRate(db, limits);
    if (allowed) return;
    const wait = retryAfter * 1000;
    if (performance.now() + wait + MIN_ATTEMPT_MS >= deadline || signal?.aborted)
      throw new AiProviderError(
        'rate_limited',
        `the provider's limit of ${provider.requestsPerMinute} requests a minute (Settings, AI) is reached, and the next minute starts in ${retryAfter} s, after the call's time`,
        { transient: false },
      );
    await sleep(wait, undefined, { signal }).catch(() => {});
  }
}
