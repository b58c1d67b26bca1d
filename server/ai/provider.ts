import { z } from 'zod';
import {
  adaptedParameters,
  type ChatParameters,
  type LearnedParameters,
  refusedParameter,
} from '@/lib/ai/chat-parameters';
import { alternatingTurns, type ChatTurn } from '@/lib/ai/prompt';
import { retryAfterSeconds } from '@/lib/retry-after';
import { SafeHttpError, safeFetch, safeFetchStream } from '@/server/http';
import { estimateTokens } from './token-estimate';

/**
 * The OpenAI-compatible chat-completions and embeddings protocol (OpenAI, Azure OpenAI's v1
 * endpoint, Ollama, vLLM, llama.cpp), every request through `server/http`. Written here rather
 * than taken from an SDK: two endpoints are all Blockbot uses, and this way every byte goes
 * through the address policy, the timeout covers the whole (streamed) answer, the answer is cut
 * at a cap, and each failure becomes one error a designer can act on, never holding the key.
 * What the servers do differently is taken here, once for every caller: the parameters a model
 * takes (learnt from its refusal, tried again at once), roles that alternate for strict chat
 * templates, an error event in a stream, tool calls streamed without an index, no usage.
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
  /** The conversation: sent with roles that alternate from the client's (alternatingTurns). */
  messages: ChatTurn[];
  temperature?: number;
  maxTokens?: number;
  /** How the two above are sent; by default max_tokens and the temperature, both adaptable. */
  parameters?: ChatParameters;
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
  /** As the server reported it, else estimated (token-estimate.ts). */
  usage: { inputTokens: number; outputTokens: number; estimated: boolean };
  /** What the answer was asked with (after any refusal taught better). */
  parameters: LearnedParameters;
}

export interface CallOptions {
  timeoutMs: number;
  /** The answer's cap, bytes (1 MB by default): a longer one fails, as does a stream that passes it. */
  maxAnswerBytes?: number;
  signal?: AbortSignal;
  /** Streams the answer: called with each piece of text as it arrives (not for structured answers). */
  onText?: (delta: string) => void;
  /** Called when the model refused a parameter and the request is tried again without it. */
  onParameters?: (learned: LearnedParameters) => void;
}

export type AiErrorKind =
  | 'auth'
  | 'rate_limited'
  | 'quota'
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
  readonly status?: number;
  readonly retryAfterSeconds?: number;
  /** The provider's error body's param and message, as it wrote them. */
  readonly refusal?: { param?: unknown; message: string };

  constructor(
    readonly kind: AiErrorKind,
    message: string,
    details: {
      status?: number;
      retryAfterSeconds?: number;
      transient?: boolean;
      refusal?: { param?: unknown; message: string };
    } = {},
  ) {
    super(message);
    this.name = 'AiProviderError';
    const { status } = details;
    this.status = status;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.refusal = details.refusal;
    this.transient = details.transient ?? (status === 429 || (status !== undefined && status >= 500));
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

/**
 * A streamed call comes in pieces: the first has its name, the others more of its arguments,
 * all with the call's index. Ollama before 0.4.7 and Gemini's OpenAI endpoint send no index,
 * each call whole in one piece.
 */
const toolCallDeltaSchema = z.object({
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
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
      type: z.unknown().optional(),
      code: z.unknown().optional(),
      param: z.unknown().optional(),
    }),
    z.string(),
  ]),
});

/** An error body's (`{"error": …}`) words and codes; a bare string is its message. */
function errorOf(body: unknown): { message: string; type?: unknown; code?: unknown; param?: unknown } | null {
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return null;
  const { error } = parsed.data;
  return typeof error === 'string' ? { message: error } : error;
}

const DEFAULT_PARAMETERS: ChatParameters = {
  tokenParameter: 'max_tokens',
  temperature: true,
  system: true,
  adapt: { tokenParameter: true, temperature: true, system: true },
};

/**
 * One chat completion. A model that refuses a parameter it was sent (a reasoning model's
 * `max_tokens` or temperature) is asked again at once without it, where the parameters may
 * adapt, so the caller still gets its answer; `onParameters` hears what it takes.
 */
export async function chat(
  endpoint: AiEndpoint,
  request: ChatRequest,
  options: CallOptions,
): Promise<ChatAnswer> {
  let parameters = request.parameters ?? DEFAULT_PARAMETERS;
  // The timeout covers the asking again too.
  const deadline = performance.now() + options.timeoutMs;
  for (;;) {
    try {
      const timeoutMs = Math.max(1, Math.floor(deadline - performance.now()));
      return await chatOnce(endpoint, request, parameters, { ...options, timeoutMs });
    } catch (error) {
      if (!(error instanceof AiProviderError) || error.status !== 400 || !error.refusal) throw error;
      const refused = refusedParameter(error.refusal);
      const adapted = refused && adaptedParameters(parameters, refused);
      if (!adapted) throw error;
      if ('setting' in adapted)
        throw new AiProviderError(error.kind, `${error.message}: ${adapted.setting}`, {
          status: error.status,
        });
      parameters = adapted;
      const { adapt: _, ...learned } = adapted;
      options.onParameters?.(learned);
    }
  }
}

async function chatOnce(
  endpoint: AiEndpoint,
  request: ChatRequest,
  parameters: ChatParameters,
  options: CallOptions,
): Promise<ChatAnswer> {
  const structured = request.jsonSchema !== undefined;
  const stream = Boolean(options.onText) && !structured;
  const messages = withSystem(request.system, alternatingTurns(request.messages), parameters.system);
  const body = {
    model: endpoint.chatModel,
    messages,
    ...(request.temperature !== undefined && parameters.temperature && { temperature: request.temperature }),
    ...(request.maxTokens !== undefined && { [parameters.tokenParameter]: request.maxTokens }),
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
  const { finishReason, rawToolCalls, reported, ...raw } = stream
    ? await streamedChat(endpoint, body, options)
    : await plainChat(endpoint, body, options);
  if (finishReason === 'length' && !raw.text && !rawToolCalls.length)
    throw new AiProviderError(
      'bad_answer',
      `The model ${endpoint.chatModel} spent all ${request.maxTokens ?? 'its'} max tokens before answering (a reasoning model thinks within them): raise the max tokens`,
    );
  const answer: ChatAnswer = {
    ...raw,
    usage: reported
      ? { ...reported, estimated: false }
      : await estimatedUsage(messages, body.tools, raw.text, rawToolCalls),
    parameters: {
      tokenParameter: parameters.tokenParameter,
      temperature: parameters.temperature,
      system: parameters.system,
    },
  };
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

/**
 * The system prompt first, as a system message, or, for a template that refuses one (Gemma's),
 * at the head of the first user turn, as those templates' own later versions do.
 */
function withSystem(
  system: string | undefined,
  turns: ChatTurn[],
  asMessage: boolean,
): { role: string; content: string }[] {
  if (!system) return turns;
  if (asMessage) return [{ role: 'system', content: system }, ...turns];
  const [first, ...rest] = turns;
  return first?.role === 'user'
    ? [{ role: 'user', content: `${system}\n\n${first.content}` }, ...rest]
    : [{ role: 'user', content: system }, ...turns];
}

interface RawAnswer {
  text: string;
  finishReason: string | null;
  rawToolCalls: RawToolCall[];
  /** The usage the server reported; null: none (or none counted). */
  reported: { inputTokens: number; outputTokens: number } | null;
}

/** A server that reports no usage (Ollama, llama.cpp, vLLM unless asked) is counted by Blockbot. */
async function estimatedUsage(
  messages: { content: string }[],
  tools: unknown,
  text: string,
  calls: RawToolCall[],
): Promise<ChatAnswer['usage']> {
  const [inputTokens, outputTokens] = await Promise.all([
    estimateTokens([...messages.map((m) => m.content), tools ? JSON.stringify(tools) : ''], messages.length),
    estimateTokens([text, ...calls.flatMap((c) => [c.name, c.arguments])]),
  ]);
  return { inputTokens, outputTokens, estimated: true };
}

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
    reported: tokens(parsed.data.usage),
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
  const calls: (RawToolCall & { id?: string })[] = [];
  let finishReason: string | null = null;
  let reported: RawAnswer['reported'] = null;
  let done = false;
  let pending = '';
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  const line = (raw: string) => {
    // llama.cpp's server writes a failure as an `error:` field; vLLM and SGLang as a `data:` event.
    if (raw.startsWith('error:')) {
      const data = raw.slice(6).trim();
      throw streamError({ error: parseJson(data) ?? data }, endpoint);
    }
    if (!raw.startsWith('data:')) return;
    const data = raw.slice(5).trim();
    if (data === '[DONE]') {
      done = true;
      return;
    }
    const json = parseJson(data);
    if (json && typeof json === 'object' && 'error' in json) throw streamError(json, endpoint);
    const chunk = chunkSchema.safeParse(json);
    if (!chunk.success)
      throw new AiProviderError(
        'bad_answer',
        'The AI provider streamed something other than chat completion chunks',
      );
    if (chunk.data.usage) reported = tokens(chunk.data.usage);
    for (const choice of chunk.data.choices) {
      const delta = choice.delta?.content;
      if (delta) {
        text += delta;
        options.onText?.(delta);
      }
      for (const piece of choice.delta?.tool_calls ?? []) {
        const call = streamedCall(calls, piece);
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
  return {
    text,
    finishReason,
    rawToolCalls: calls.filter(Boolean).map(({ name, arguments: args }) => ({ name, arguments: args })),
    reported,
  };
}

/**
 * The call a streamed piece belongs to: by its index; without one (older Ollama, Gemini), the
 * call of its id, else a new call when it has a name or a new id, else the last call.
 */
function streamedCall(
  calls: (RawToolCall & { id?: string })[],
  piece: z.infer<typeof toolCallDeltaSchema>,
): RawToolCall {
  if (piece.index !== undefined && piece.index !== null) {
    calls[piece.index] ??= { name: '', arguments: '' };
    return calls[piece.index];
  }
  const id = piece.id ?? undefined;
  const known = id === undefined ? undefined : calls.find((c) => c?.id === id);
  if (known) return known;
  const last = calls.at(-1);
  if (last && id === undefined && !piece.function?.name) return last;
  const call = { name: '', arguments: '', id };
  calls.push(call);
  return call;
}

/** An error event in a stream: the call failed, whatever text came before it. */
function streamError(body: unknown, endpoint: AiEndpoint): AiProviderError {
  const error = errorOf(body);
  const detail = error?.message ?? String(body).slice(0, 200);
  const code = error?.code;
  const status = typeof code === 'number' && code >= 400 && code <= 599 ? code : 500;
  const said = redact(detail, endpoint.apiKey).trim();
  return new AiProviderError(
    'provider_error',
    `The AI provider failed in the middle of its answer${said ? `: "${said}"` : ''}`,
    { status },
  );
}

export async function embed(
  endpoint: AiEndpoint,
  texts: string[],
  options: CallOptions & { expectedDimensions?: number },
): Promise<{ vectors: number[][]; usage: { tokens: number; estimated: boolean } }> {
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
  const reported = parsed.data.usage?.prompt_tokens;
  return {
    vectors,
    usage: reported
      ? { tokens: reported, estimated: false }
      : { tokens: await estimateTokens(texts), estimated: true },
  };
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

/** The usage a server reported; none, or nothing counted (0 tokens in, which no request is), is null. */
const tokens = (usage: z.infer<typeof usageSchema>) =>
  usage && (usage.prompt_tokens > 0 || usage.completion_tokens > 0)
    ? { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens }
    : null;

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
    throw new AiProviderError('unreachable', `The AI provider could not be reached: ${error.message}`, {
      transient: error.code === 'network',
    });
  }
}

/** A provider's error body as one sentence, with the key (or any key-like token) cut out. */
function httpError(
  response: { status: number; headers: Record<string, string>; body: string },
  endpoint: AiEndpoint,
): AiProviderError {
  const error = errorOf(parseJson(response.body));
  const detail = error?.message ?? response.body.slice(0, 200);
  const code = error?.code;
  const said = redact(`${detail}${typeof code === 'string' ? ` (${code})` : ''}`, endpoint.apiKey).trim();
  const { status } = response;
  const quoted = said ? `: "${said}"` : '';
  if (status === 401 || status === 403)
    return new AiProviderError(
      'auth',
      `The AI provider refused the API key (HTTP ${status})${quoted}: set the key's secret in Settings, Secrets`,
      { status },
    );
  // No credit left: waiting does not cure it, so it is not tried again.
  if (status === 429 && (code === 'insufficient_quota' || error?.type === 'insufficient_quota'))
    return new AiProviderError(
      'quota',
      `The AI provider's account has no quota or credit left (HTTP 429)${quoted}: add credit or raise the limit in the provider's billing settings`,
      { status, transient: false },
    );
  if (status === 429) {
    const wait = retryAfterSeconds(response.headers['retry-after'], new Date());
    return new AiProviderError(
      'rate_limited',
      `The AI provider's rate limit is reached (HTTP 429)${quoted}${wait !== undefined ? `; it asks to wait ${wait} s` : ''}`,
      { status, retryAfterSeconds: wait },
    );
  }
  if (status === 404)
    return new AiProviderError(
      'not_found',
      `The AI provider does not know this model or address (HTTP 404)${quoted}: check the base URL and the model in Settings, AI`,
      { status },
    );
  if (status >= 400 && status < 500)
    return new AiProviderError(
      'bad_request',
      `The AI provider refused the request (HTTP ${status})${quoted}`,
      {
        status,
        refusal: { param: error?.param, message: detail },
      },
    );
  return new AiProviderError('provider_error', `The AI provider failed (HTTP ${status})${quoted}`, {
    status,
  });
}

/** OpenAI's 401 repeats part of the key; other servers may repeat it whole. */
function redact(text: string, apiKey: string): string {
  let out = apiKey ? text.split(apiKey).join('[key]') : text;
  out = out.replace(/\b(sk|pk|key)-[A-Za-z0-9_*.-]{6,}/g, '[key]');
  return out.slice(0, 300);
}
