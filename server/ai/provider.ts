import { z } from 'zod';
import type { ChatTurn } from '@/lib/ai/prompt';
import { SafeHttpError, safeFetch, safeFetchStream } from '@/server/http';

/**
 * The OpenAI-compatible chat-completions and embeddings protocol (OpenAI, Azure OpenAI's v1
 * endpoint, Ollama, vLLM, llama.cpp), every request through `server/http`. Written here rather
 * than taken from an SDK: two endpoints are all Blockbot uses, and this way every byte goes
 * through the address policy, the timeout covers the whole (streamed) answer, the answer is cut
 * at a cap, and each failure becomes one error a designer can act on, never holding the key.
 */

export interface AiEndpoint {
  /** The API's root, up to `/v1`. */
  baseUrl: string;
  /** Empty: no Authorization header (a local server). */
  apiKey: string;
  chatModel: string;
  embeddingModel?: string;
  embeddingDimensions?: number;
}

export interface ChatRequest {
  system?: string;
  messages: ChatTurn[];
  temperature?: number;
  maxTokens?: number;
  /** Structured output: the answer is JSON following this schema (`response_format` json_schema). */
  jsonSchema?: Record<string, unknown>;
  /** Functions the model may call (`tools`); it answers text, calls, or both. */
  tools?: AiTool[];
}

export interface AiTool {
  /** Letters, digits, _ and - (the protocol's pattern). */
  name: string;
  description: string;
  /** The arguments' JSON schema. */
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  name: string;
  /** The arguments, parsed from the JSON the model wrote. */
  arguments: unknown;
}

export interface ChatAnswer {
  text: string;
  /** The parsed answer of a structured request. */
  json?: unknown;
  /** The tools the model called, in order (only when tools were offered). */
  toolCalls?: ToolCall[];
  usage: { inputTokens: number; outputTokens: number };
}

export interface CallOptions {
  timeoutMs: number;
  /** The answer's cap, bytes (1 MB by default): a longer one fails, as does a stream that passes it. */
  maxAnswerBytes?: number;
  signal?: AbortSignal;
  /** Streams the answer: called with each piece of text as it arrives (not for structured answers). */
  onText?: (delta: string) => void;
}

export type AiErrorKind =
  | 'auth'
  | 'rate_limited'
  | 'not_found'
  | 'bad_request'
  | 'provider_error'
  | 'bad_answer'
  | 'timeout'
  | 'too_large'
  | 'wrong_dimensions'
  | 'unreachable';

/** Why the provider gave no usable answer, in words that say where to fix it; never holds the key. */
export class AiProviderError extends Error {
  /** Worth trying again (a 429, a 5xx, a dropped connection): the same request may succeed. */
  readonly transient: boolean;

  constructor(
    readonly kind: AiErrorKind,
    message: string,
    readonly status?: number,
    readonly retryAfterSeconds?: number,
    transient?: boolean,
  ) {
    super(message);
    this.name = 'AiProviderError';
    this.transient = transient ?? (status === 429 || (status !== undefined && status >= 500));
  }
}

const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;

const usageSchema = z
  .object({
    prompt_tokens: z.number().int().nonnegative().default(0),
    completion_tokens: z.number().int().nonnegative().default(0),
  })
  .nullish();

const toolCallSchema = z.object({
  function: z.object({ name: z.string(), arguments: z.string().default('') }),
});

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z.array(toolCallSchema).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: usageSchema,
});

/** A streamed call comes in pieces: the first has its name, the others more of its arguments. */
const toolCallDeltaSchema = z.object({
  index: z.number().int().nonnegative(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

const chunkSchema = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({ content: z.string().nullish(), tool_calls: z.array(toolCallDeltaSchema).nullish() })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .default([]),
  usage: usageSchema,
});

const embeddingsSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative().default(0),
      total_tokens: z.number().int().optional(),
    })
    .nullish(),
});

const errorBodySchema = z.object({
  error: z.union([
    z.object({
      message: z.string().default(''),
      code: z.unknown().optional(),
      param: z.unknown().optional(),
    }),
    z.string(),
  ]),
});

export async function chat(
  endpoint: AiEndpoint,
  request: ChatRequest,
  options: CallOptions,
): Promise<ChatAnswer> {
  const structured = request.jsonSchema !== undefined;
  const stream = Boolean(options.onText) && !structured;
  const body = {
    model: endpoint.chatModel,
    messages: [...(request.system ? [{ role: 'system', content: request.system }] : []), ...request.messages],
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
    ...(structured && {
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: request.jsonSchema, strict: true },
      },
    }),
    ...(request.tools?.length && {
      tools: request.tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      })),
    }),
    ...(stream && { stream: true, stream_options: { include_usage: true } }),
  };
  const { finishReason, rawToolCalls, ...answer } = stream
    ? await streamedChat(endpoint, body, options)
    : await plainChat(endpoint, body, options);
  if (request.tools?.length) answer.toolCalls = rawToolCalls.map((call) => parsedCall(call, endpoint));
  if (!structured) return answer;
  if (finishReason === 'length')
    throw new AiProviderError(
      'bad_answer',
      `The AI provider's structured answer was cut at the token limit: raise the max tokens`,
    );
  try {
    return { ...answer, json: JSON.parse(answer.text) };
  } catch {
    throw new AiProviderError(
      'bad_answer',
      `The AI provider did not answer the JSON asked for (model ${endpoint.chatModel}): choose a model that supports structured output`,
    );
  }
}

interface RawToolCall {
  name: string;
  arguments: string;
}

type RawAnswer = ChatAnswer & { finishReason: string | null; rawToolCalls: RawToolCall[] };

/** A call's arguments as the model wrote them (JSON); none at all is an empty object. */
function parsedCall(call: RawToolCall, endpoint: AiEndpoint): ToolCall {
  if (!call.arguments.trim()) return { name: call.name, arguments: {} };
  try {
    return { name: call.name, arguments: JSON.parse(call.arguments) };
  } catch {
    throw new AiProviderError(
      'bad_answer',
      `The AI provider called ${call.name} with arguments that are not JSON (model ${endpoint.chatModel}): choose a model that supports tool calls`,
    );
  }
}

async function plainChat(endpoint: AiEndpoint, body: object, options: CallOptions): Promise<RawAnswer> {
  const response = await call(() =>
    safeFetch(`${endpoint.baseUrl}/chat/completions`, request(endpoint, body, options)),
  );
  if (response.status < 200 || response.status > 299) throw httpError(response, endpoint);
  const parsed = completionSchema.safeParse(parseJson(response.body));
  if (!parsed.success)
    throw new AiProviderError(
      'bad_answer',
      'The AI provider answered something other than a chat completion: check the base URL (it ends with /v1)',
    );
  const [choice] = parsed.data.choices;
  return {
    text: choice.message.content ?? '',
    finishReason: choice.finish_reason ?? null,
    rawToolCalls: (choice.message.tool_calls ?? []).map((c) => c.function),
    usage: tokens(parsed.data.usage),
  };
}

async function streamedChat(endpoint: AiEndpoint, body: object, options: CallOptions): Promise<RawAnswer> {
  const response = await call(() =>
    safeFetchStream(`${endpoint.baseUrl}/chat/completions`, request(endpoint, body, options)),
  );
  if (response.status < 200 || response.status > 299) {
    const text = await call(() => new Response(response.body).text());
    throw httpError({ status: response.status, headers: response.headers, body: text }, endpoint);
  }
  let text = '';
  const calls: RawToolCall[] = [];
  let finishReason: string | null = null;
  let usage = { inputTokens: 0, outputTokens: 0 };
  let done = false;
  let pending = '';
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  const line = (raw: string) => {
    if (!raw.startsWith('data:')) return;
    const data = raw.slice(5).trim();
    if (data === '[DONE]') {
      done = true;
      return;
    }
    const chunk = chunkSchema.safeParse(parseJson(data));
    if (!chunk.success)
      throw new AiProviderError(
        'bad_answer',
        'The AI provider streamed something other than chat completion chunks',
      );
    if (chunk.data.usage) usage = tokens(chunk.data.usage);
    for (const choice of chunk.data.choices) {
      const delta = choice.delta?.content;
      if (delta) {
        text += delta;
        options.onText?.(delta);
      }
      for (const piece of choice.delta?.tool_calls ?? []) {
        calls[piece.index] ??= { name: '', arguments: '' };
        const call = calls[piece.index];
        // The name comes whole in a call's first piece (some servers repeat it in later ones).
        if (piece.function?.name && !call.name) call.name = piece.function.name;
        call.arguments += piece.function?.arguments ?? '';
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  };
  await call(async () => {
    try {
      while (!done) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        pending += decoder.decode(value, { stream: true });
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const l of lines) line(l.trim());
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  });
  if (pending.trim()) line(pending.trim());
  if (!done && finishReason === null)
    throw new AiProviderError('bad_answer', 'The AI provider ended its streamed answer before finishing it');
  return { text, finishReason, rawToolCalls: calls.filter(Boolean), usage };
}

export async function embed(
  endpoint: AiEndpoint,
  texts: string[],
  options: CallOptions & { expectedDimensions?: number },
): Promise<{ vectors: number[][]; usage: { tokens: number } }> {
  if (!endpoint.embeddingModel)
    throw new AiProviderError(
      'bad_request',
      'The AI provider has no embedding model: set one in Settings, AI',
    );
  const body = {
    model: endpoint.embeddingModel,
    input: texts,
    encoding_format: 'float',
    ...(endpoint.embeddingDimensions && { dimensions: endpoint.embeddingDimensions }),
  };
  const response = await call(() =>
    safeFetch(`${endpoint.baseUrl}/embeddings`, {
      ...request(endpoint, body, options),
      // Vectors are long: 1,000 texts of 1,536 numbers are about 20 MB of JSON.
      maxBytes: options.maxAnswerBytes ?? 64 * 1024 * 1024,
    }),
  );
  if (response.status < 200 || response.status > 299) throw httpError(response, endpoint);
  const parsed = embeddingsSchema.safeParse(parseJson(response.body));
  if (!parsed.success || parsed.data.data.length !== texts.length)
    throw new AiProviderError(
      'bad_answer',
      `The AI provider did not answer one embedding per text (${texts.length} asked): check the embedding model`,
    );
  const vectors = [...parsed.data.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
  const expected = options.expectedDimensions ?? endpoint.embeddingDimensions;
  const wrong = vectors.find((v) => v.length === 0 || (expected !== undefined && v.length !== expected));
  if (wrong)
    throw new AiProviderError(
      'wrong_dimensions',
      `The embedding model ${endpoint.embeddingModel} answered vectors of ${wrong.length} dimensions, ${expected ?? 'more than 0'} expected: the knowledge base was indexed with another model or size; set the dimensions in Settings, AI, or re-index it`,
    );
  return { vectors, usage: { tokens: parsed.data.usage?.prompt_tokens ?? 0 } };
}

/** Azure OpenAI's resources take a key in `api-key`, and Entra tokens as Bearer. */
const AZURE_HOST = /\.(openai\.azure\.com|services\.ai\.azure\.com|cognitiveservices\.azure\.com)$/i;

/** The header that carries the key: none for a server that takes none. */
export function keyHeader(baseUrl: string, apiKey: string): Record<string, string> {
  if (!apiKey) return {};
  let host = '';
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    // A bad base URL fails at the request, with the address policy's words.
  }
  return AZURE_HOST.test(host) ? { 'api-key': apiKey } : { authorization: `Bearer ${apiKey}` };
}

function request(endpoint: AiEndpoint, body: object, options: CallOptions) {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...keyHeader(endpoint.baseUrl, endpoint.apiKey),
    },
    body: JSON.stringify(body),
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    signal: options.signal,
  };
}

const tokens = (usage: z.infer<typeof usageSchema>) => ({
  inputTokens: usage?.prompt_tokens ?? 0,
  outputTokens: usage?.completion_tokens ?? 0,
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The network's failures as the provider's: the policy's words kept (they say how to allow a host). */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof SafeHttpError)) throw error;
    if (error.code === 'timeout')
      throw new AiProviderError('timeout', `The AI provider did not answer in time: ${error.message}`);
    if (error.code === 'too_large')
      throw new AiProviderError(
        'too_large',
        `The AI provider's answer is larger than allowed: ${error.message}`,
      );
    // A network failure (a refused or dropped connection) may pass; the address policy's refusal will not.
    throw new AiProviderError(
      'unreachable',
      `The AI provider could not be reached: ${error.message}`,
      undefined,
      undefined,
      error.code === 'network',
    );
  }
}

/** A provider's error body as one sentence, with the key (or any key-like token) cut out. */
function httpError(
  response: { status: number; headers: Record<string, string>; body: string },
  endpoint: AiEndpoint,
): AiProviderError {
  const parsed = errorBodySchema.safeParse(parseJson(response.body));
  const detail = parsed.success
    ? typeof parsed.data.error === 'string'
      ? parsed.data.error
      : parsed.data.error.message
    : response.body.slice(0, 200);
  const code = parsed.success && typeof parsed.data.error === 'object' ? parsed.data.error.code : undefined;
  const said = redact(`${detail}${typeof code === 'string' ? ` (${code})` : ''}`, endpoint.apiKey).trim();
  const { status } = response;
  const quoted = said ? `: "${said}"` : '';
  if (status === 401 || status === 403)
    return new AiProviderError(
      'auth',
      `The AI provider refused the API key (HTTP ${status})${quoted}: set the key's secret in Settings, Secrets`,
      status,
    );
  if (status === 429) {
    const retryAfter = Number(response.headers['retry-after']);
    const wait = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined;
    return new AiProviderError(
      'rate_limited',
      `The AI provider's rate limit or quota is reached (HTTP 429)${quoted}${wait !== undefined ? `; it asks to wait ${wait} s` : ''}`,
      status,
      wait,
    );
  }
  if (status === 404)
    return new AiProviderError(
      'not_found',
      `The AI provider does not know this model or address (HTTP 404)${quoted}: check the base URL and the model in Settings, AI`,
      status,
    );
  if (status >= 400 && status < 500)
    return new AiProviderError(
      'bad_request',
      `The AI provider refused the request (HTTP ${status})${quoted}`,
      status,
    );
  return new AiProviderError('provider_error', `The AI provider failed (HTTP ${status})${quoted}`, status);
}

/** OpenAI's 401 repeats part of the key; other servers may repeat it whole. */
function redact(text: string, apiKey: string): string {
  let out = apiKey ? text.split(apiKey).join('[key]') : text;
  out = out.replace(/\b(sk|pk|key)-[A-Za-z0-9_*.-]{6,}/g, '[key]');
  return out.slice(0, 300);
}
