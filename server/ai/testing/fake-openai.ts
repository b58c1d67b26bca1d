import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible server on 127.0.0.1 for tests and the knowledge bench, written from
 * the OpenAI API reference: `POST /v1/chat/completions` (plain, and streamed as server-sent
 * `chat.completion.chunk` events ending with `data: [DONE]`, with `stream_options.include_usage`),
 * `POST /v1/embeddings`, `GET /v1/models`, Bearer keys, function tools and their calls (plain,
 * and streamed as a call's name then pieces of its arguments), and the real error bodies
 * (`{"error":{"message","type","param","code"}}`) and status codes: 400 with the param named,
 * 401 `invalid_api_key`, 404 `model_not_found`, 429 `rate_limit_exceeded` with `retry-after`
 * and `x-ratelimit-*`, 500 `server_error`. Tests script the next answers (`next` for chat
 * completions, `nextEmbeddings` for embeddings); without
 * one, a chat answers "ok" (or the schema's first property filled for a structured request),
 * and embeddings are a hashed bag of words, normalised, so texts sharing words are near.
 *
 * What other servers, and OpenAI's other models, do differently (the `quirks`, and some answers):
 * - Reasoning models (o-series, gpt-5; `reasoningModels`) refuse `max_tokens` with 400
 *   `unsupported_parameter` "Unsupported parameter: 'max_tokens' is not supported with this
 *   model. Use 'max_completion_tokens' instead." (param `max_tokens`), and any temperature but 1
 *   with 400 `unsupported_value` "Unsupported value: 'temperature' does not support 0.7 with this
 *   model. Only the default (1) value is supported." (param `temperature`): the bodies quoted in
 *   github.com/griptape-ai/ComfyUI-Griptape/issues/312 and gabrii/Cursor-Azure-GPT-5/issues/33.
 *   Azure names a deployment freely, so the name does not always say it is one.
 * - A strict chat template (`strictRoles`: vLLM or llama.cpp serving Mistral, Llama 2 or Gemma)
 *   takes an optional system message first, then user and assistant turns alternating from the
 *   user, else 400 "Conversation roles must alternate user/assistant/user/assistant/..." with
 *   type `BadRequestError` and code 400 (microsoft/autogen#1037, vllm-project/vllm#6862).
 *   Gemma's (gemma-7b-it, Gemma 2; `systemRole: false`) refuses a system message at all: its
 *   template's raise_exception('System role not supported'), the same 400.
 * - A failure in the middle of a streamed answer (a GPU failing) is an error event after the
 *   text so far, then `data: [DONE]` as usual: vLLM and SGLang write `data: {"error":{...}}`
 *   (their `create_streaming_error_response`, vllm-project/vllm#40986), llama.cpp's server an
 *   `error: {...}` field (its `server_sent_event(sink, "error", …)`). Scripted by `streamError`.
 * - Streamed tool calls without `index` (`toolCallIndex: false`), each call whole in one chunk:
 *   Ollama before 0.4.7 (ollama/ollama#7881) and Gemini's OpenAI endpoint
 *   (AstrBotDevs/AstrBot#6692).
 * - No usage reported (`usage: false`), plain or streamed, `stream_options` or not: Ollama before
 *   0.5.2 (ollama/ollama#4448, #5200), llama.cpp and vLLM unless asked. Embeddings then report
 *   none either (not seen in a source: the same quirk, so the estimate of theirs is tested).
 * - 429 `insufficient_quota` (type and code), "You exceeded your current quota, please check
 *   your plan and billing details. …": no credit left, which waiting does not cure
 *   (ChatGPTNextWeb/NextChat#3123).
 * - `retry-after` as delay-seconds or as an HTTP date (RFC 9110 §10.2.3; `retryAfter` a Date).
 */

export type FakeAnswer =
  | {
      text: string;
      usage?: { prompt_tokens: number; completion_tokens: number };
      /** Streamed: after this many pieces the stream waits for `release()`. */
      pauseAfter?: number;
      /**
       * Streamed: after this many pieces an error event, then `[DONE]` (vLLM's `data:` form,
       * or llama.cpp's `error:` field); plain: a 500.
       */
      streamError?: { after: number; form?: 'data' | 'field' };
      /** Cut at the token limit (`finish_reason` length): a reasoning model that spent it thinking writes "". */
      cut?: boolean;
    }
  | { json: unknown }
  /** Calls of tools the request offered (a tool it did not offer fails the request), with text or none. */
  | {
      /** `rawArguments`: written as is instead of `arguments` as JSON (a model's broken JSON). */
      toolCalls: { name: string; arguments: unknown; rawArguments?: string }[];
      text?: string;
    }
  /** The connection is closed under the client: before any byte, or after the headers. */
  | { drop: 'before' | 'midway' }
  | {
      status: number;
      message?: string;
      type?: string;
      code?: string;
      param?: string | null;
      /** Seconds, or a date (sent as an HTTP date). */
      retryAfter?: number | Date;
    }
  | { malformed: true }
  /** Accepts the request and never answers. */
  | { hang: true }
  /** A stream (or a body) that never ends: chunks forever. */
  | { endless: true }
  /** A 200 body of this many bytes. */
  | { hugeBytes: number }
  /** Embeddings of this many dimensions, whatever was asked. */
  | { dimensions: number }
  | { delayMs: number; answer: FakeAnswer };

export interface FakeRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | undefined;
}

export interface FakeOpenAi {
  /** The base URL, up to /v1. */
  url: string;
  apiKey: string;
  models: string[];
  requests: FakeRequest[];
  /** The answers to the next chat completions, in order. */
  next(...answers: FakeAnswer[]): void;
  /** The answers to the next embeddings requests, in order. */
  nextEmbeddings(...answers: FakeAnswer[]): void;
  /** Requests accepted and not answered yet (hanging ones included). */
  open(): number;
  /** Lets the streams paused by `pauseAfter` go on. */
  release(): void;
  /** Behaves as another server (until `reset`). */
  quirks(quirks: Partial<FakeQuirks>): void;
  /** Forgets the scripted answers not used yet, the requests seen and the quirks set since the start. */
  reset(): void;
  close(): Promise<void>;
}

/** How this server differs from OpenAI's own with gpt-4o (the header says whose each is). */
export interface FakeQuirks {
  /** Served models that refuse `max_tokens` and a temperature other than 1. */
  reasoningModels: string[];
  /** Roles must alternate from the user, after an optional system message. */
  strictRoles: boolean;
  /** A system message is taken (Gemma's template, 1 and 2, refuses it). */
  systemRole: boolean;
  /** Usage reported (plain, and streamed when asked). */
  usage: boolean;
  /** Streamed tool calls carry their `index`. */
  toolCallIndex: boolean;
}

export interface FakeOpenAiOptions extends Partial<FakeQuirks> {
  apiKey?: string;
  models?: string[];
  /** Embedding size when the request names none. */
  dimensions?: number;
  port?: number;
}

const error = (
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
) => ({
  status,
  body: { error: { message, type, param, code } },
});

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const apiKey = options.apiKey ?? 'sk-test-fake-0123456789';
  const models = options.models ?? ['gpt-4o-mini', 'text-embedding-3-small'];
  const requests: FakeRequest[] = [];
  const queue: FakeAnswer[] = [];
  const embeddingQueue: FakeAnswer[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const paused = new Set<() => void>();
  let open = 0;
  const startQuirks: FakeQuirks = {
    reasoningModels: options.reasoningModels ?? [],
    strictRoles: options.strictRoles ?? false,
    systemRole: options.systemRole ?? true,
    usage: options.usage ?? true,
    toolCallIndex: options.toolCallIndex ?? true,
  };
  let quirks = { ...startQuirks };

  const send = (
    res: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-ratelimit-limit-requests': '500',
      'x-ratelimit-remaining-requests': '499',
      ...headers,
    });
    res.end(JSON.stringify(body));
  };

  /** A reasoning model's 400 for the first parameter it does not take. */
  function reasoningRefusal(body: Record<string, unknown>) {
    if (!quirks.reasoningModels.includes(String(body.model))) return null;
    if (body.max_tokens !== undefined)
      return error(
        400,
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        'invalid_request_error',
        'unsupported_parameter',
        'max_tokens',
      );
    if (body.temperature !== undefined && body.temperature !== 1)
      return error(
        400,
        `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`,
        'invalid_request_error',
        'unsupported_value',
        'temperature',
      );
    return null;
  }

  /** A strict chat template's refusal (vLLM's body): a system message, or roles that do not alternate. */
  function templateRefusal(messages: unknown) {
    if (!Array.isArray(messages)) return null;
    const refuse = (message: string) => ({
      status: 400,
      body: { error: { message, type: 'BadRequestError', param: null, code: 400 } },
    });
    const system = messages[0]?.role === 'system';
    if (system && !quirks.systemRole) return refuse('System role not supported');
    if (!quirks.strictRoles) return null;
    const turns = system ? messages.slice(1) : messages;
    const alternate = turns.every(
      (m: { role?: unknown }, i) => m?.role === (i % 2 === 0 ? 'user' : 'assistant'),
    );
    return alternate ? null : refuse('Conversation roles must alternate user/assistant/user/assistant/...');
  }

  const server = http.createServer((req, res) => {
    open++;
    res.on('close', () => open--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> | undefined;
      const raw = Buffer.concat(chunks).toString('utf8');
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0];
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        const given = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        const shown = given ? `${given.slice(0, 3)}*****${given.slice(-4)}` : '';
        const e = given
          ? error(
              401,
              `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`,
              'invalid_request_error',
              'invalid_api_key',
            )
          : error(
              401,
              "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
              'invalid_request_error',
              null,
            );
        return send(res, e.status, e.body);
      }
      if (req.method === 'GET' && path === '/v1/models')
        return send(res, 200, {
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
        });
      if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/v1/embeddings')) {
        const e = error(404, `Invalid URL (${req.method} ${path})`, 'invalid_request_error', null);
        return send(res, e.status, e.body);
      }
      if (!body) {
        const e = error(
          400,
          "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)",
          'invalid_request_error',
          null,
        );
        return send(res, e.status, e.body);
      }
      const model = String(body.model ?? '');
      if (!models.includes(model) && !quirks.reasoningModels.includes(model)) {
        const e = error(
          404,
          `The model \`${model}\` does not exist or you do not have access to it.`,
          'invalid_request_error',
          'model_not_found',
        );
        return send(res, e.status, e.body);
      }
      // Refused before any answer is made: the next scripted one is for the request that passes.
      const refusal =
        path === '/v1/chat/completions' && (reasoningRefusal(body) ?? templateRefusal(body.messages));
      if (refusal) return send(res, refusal.status, refusal.body);
      answer(res, path, body, (path === '/v1/embeddings' ? embeddingQueue : queue).shift());
    });
  });

  function answer(
    res: http.ServerResponse,
    path: string,
    body: Record<string, unknown>,
    scripted: FakeAnswer | undefined,
  ) {
    if (scripted && 'delayMs' in scripted) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer(res, path, body, scripted.answer);
      }, scripted.delayMs);
      timers.add(timer);
      return;
    }
    if (scripted && 'hang' in scripted) return;
    if (scripted && 'drop' in scripted) {
      if (scripted.drop === 'midway') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id": "chatcmpl-1", ');
      }
      // Destroyed once what was written has left, as a server closing a kept-alive connection.
      return setImmediate(() => res.socket?.destroy());
    }
    if (scripted && 'status' in scripted) {
      const type =
        scripted.type ??
        (scripted.status >= 500
          ? 'server_error'
          : scripted.status === 429
            ? 'requests'
            : 'invalid_request_error');
      const code =
        scripted.code ??
        (scripted.status === 429 ? 'rate_limit_exceeded' : scripted.status >= 500 ? 'server_error' : null);
      const message =
        scripted.message ??
        (code === 'insufficient_quota'
          ? 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.'
          : scripted.status === 429
            ? 'Rate limit reached for requests. Please try again in 20s.'
            : scripted.status >= 500
              ? 'The server had an error while processing your request. Sorry about that!'
              : 'Invalid request.');
      const { retryAfter } = scripted;
      return send(
        res,
        scripted.status,
        {
          error: {
            message,
            type: code === 'insufficient_quota' ? code : type,
            param: scripted.param ?? null,
            code,
          },
        },
        {
          ...(retryAfter !== undefined && {
            'retry-after': retryAfter instanceof Date ? retryAfter.toUTCString() : String(retryAfter),
          }),
          ...(scripted.status === 429 && {
            'x-ratelimit-remaining-requests': '0',
            'x-ratelimit-reset-requests': '20s',
          }),
        },
      );
    }
    if (scripted && 'malformed' in scripted) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"id": "chatcmpl-1", "choices": [');
    }
    if (scripted && 'hugeBytes' in scripted) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(`{"pad":"${'x'.repeat(scripted.hugeBytes)}"}`);
    }
    if (path === '/v1/embeddings') return embeddings(res, body, scripted);
    return completion(res, body, scripted);
  }

  function embeddings(
    res: http.ServerResponse,
    body: Record<string, unknown>,
    scripted: FakeAnswer | undefined,
  ) {
    const input = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(input) || input.length === 0 || input.some((t) => typeof t !== 'string')) {
      const e = error(
        400,
        "'input' must be a string or an array of strings, not empty.",
        'invalid_request_error',
        null,
        'input',
      );
      return send(res, e.status, e.body);
    }
    if (input.length > 2048) {
      const e = error(
        400,
        `'input' : maximum 2048 inputs per request, ${input.length} given.`,
        'invalid_request_error',
        null,
        'input',
      );
      return send(res, e.status, e.body);
    }
    const size =
      scripted && 'dimensions' in scripted
        ? scripted.dimensions
        : Number(body.dimensions ?? options.dimensions ?? 64);
    const texts = input as string[];
    const tokens = texts.reduce((n, t) => n + countTokens(t), 0);
    send(res, 200, {
      object: 'list',
      data: texts.map((t, index) => ({ object: 'embedding', index, embedding: bagOfWords(t, size) })),
      model: body.model,
      ...(quirks.usage && { usage: { prompt_tokens: tokens, total_tokens: tokens } }),
    });
  }

  function completion(
    res: http.ServerResponse,
    body: Record<string, unknown>,
    scripted: FakeAnswer | undefined,
  ) {
    const messages = body.messages;
    if (!Array.isArray(messages) || messages.length === 0) {
      const e = error(
        400,
        "Invalid 'messages': empty array. Expected an array with minimum length 1.",
        'invalid_request_error',
        'empty_array',
        'messages',
      );
      return send(res, e.status, e.body);
    }
    const offered = toolNames(body.tools);
    if (typeof offered === 'object' && 'error' in offered) return send(res, offered.status, offered.body);
    const calls = scripted && 'toolCalls' in scripted ? scripted.toolCalls : [];
    const unknownCall = calls.find((c) => !offered.includes(c.name));
    if (unknownCall)
      return send(res, 500, {
        error: {
          message: `fake: the script calls ${unknownCall.name}, which the request did not offer`,
          type: 'server_error',
          param: null,
          code: null,
        },
      });
    const format = body.response_format as
      | { type?: string; json_schema?: { schema?: Record<string, unknown> } }
      | undefined;
    const text =
      scripted && 'toolCalls' in scripted
        ? (scripted.text ?? '')
        : scripted && 'text' in scripted
          ? scripted.text
          : scripted && 'json' in scripted
            ? JSON.stringify(scripted.json)
            : format?.type === 'json_schema'
              ? JSON.stringify(sample(format.json_schema?.schema))
              : 'ok';
    const promptTokens = messages.reduce(
      (n: number, m: { content?: unknown }) => n + countTokens(String(m.content ?? '')),
      0,
    );
    const counted =
      scripted && 'usage' in scripted && scripted.usage
        ? scripted.usage
        : { prompt_tokens: promptTokens, completion_tokens: countTokens(text) };
    const usage = { ...counted, total_tokens: counted.prompt_tokens + counted.completion_tokens };
    const streamError = scripted && 'streamError' in scripted ? scripted.streamError : undefined;
    const toolCalls = calls.map((c, i) => ({
      id: `call_${requests.length}_${i}`,
      type: 'function',
      function: { name: c.name, arguments: c.rawArguments ?? JSON.stringify(c.arguments) },
    }));
    const cut = Boolean(scripted && 'cut' in scripted && scripted.cut);
    const finishReason = cut ? 'length' : toolCalls.length ? 'tool_calls' : 'stop';
    const id = `chatcmpl-${requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    const endless = Boolean(scripted && 'endless' in scripted);
    if (!body.stream) {
      if (streamError)
        return send(res, 500, {
          error: {
            message: 'CUDA error: an illegal memory access was encountered',
            type: 'InternalServerError',
            param: null,
            code: 500,
          },
        });
      if (endless) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const drip = setInterval(() => res.write(' '), 5);
        timers.add(drip as unknown as NodeJS.Timeout);
        res.on('close', () => clearInterval(drip));
        return;
      }
      return send(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: toolCalls.length && !text ? null : text,
              refusal: null,
              ...(toolCalls.length && { tool_calls: toolCalls }),
            },
            logprobs: null,
            finish_reason: finishReason,
          },
        ],
        ...(quirks.usage && { usage }),
      });
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const event = (choices: unknown[], extra: object = {}) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices, ...extra })}\n\n`,
      );
    event([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    if (endless) {
      const drip = setInterval(
        () => event([{ index: 0, delta: { content: 'more ' }, finish_reason: null }]),
        5,
      );
      timers.add(drip as unknown as NodeJS.Timeout);
      res.on('close', () => clearInterval(drip));
      return;
    }
    const pieces = text.match(/\S+\s*|\s+/g) ?? [];
    if (streamError) {
      for (const piece of pieces.slice(0, streamError.after))
        event([{ index: 0, delta: { content: piece }, finish_reason: null }]);
      const message = 'CUDA error: an illegal memory access was encountered';
      // vLLM's ErrorInfo in a data event; llama.cpp's own error object in an `error:` field.
      res.write(
        streamError.form === 'field'
          ? `error: ${JSON.stringify({ code: 500, message, type: 'server_error' })}\n\n`
          : `data: ${JSON.stringify({ error: { message, type: 'InternalServerError', param: null, code: 500 } })}\n\n`,
      );
      return res.end('data: [DONE]\n\n');
    }
    const rest = (from: number) => {
      for (const piece of pieces.slice(from))
        event([{ index: 0, delta: { content: piece }, finish_reason: null }]);
      if (!quirks.toolCallIndex)
        for (const call of toolCalls)
          event([{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }]);
      else
        toolCalls.forEach((call, index) => {
          const { name, arguments: args } = call.function;
          event([
            {
              index: 0,
              delta: {
                tool_calls: [{ index, id: call.id, type: 'function', function: { name, arguments: '' } }],
              },
              finish_reason: null,
            },
          ]);
          const half = Math.ceil(args.length / 2);
          for (const piece of [args.slice(0, half), args.slice(half)].filter(Boolean))
            event([
              {
                index: 0,
                delta: { tool_calls: [{ index, function: { arguments: piece } }] },
                finish_reason: null,
              },
            ]);
        });
      event([{ index: 0, delta: {}, finish_reason: finishReason }]);
      const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage;
      if (includeUsage && quirks.usage) event([], { usage });
      res.end('data: [DONE]\n\n');
    };
    const pauseAfter = scripted && 'pauseAfter' in scripted ? scripted.pauseAfter : undefined;
    if (pauseAfter === undefined || pauseAfter >= pieces.length) return rest(0);
    for (const piece of pieces.slice(0, pauseAfter))
      event([{ index: 0, delta: { content: piece }, finish_reason: null }]);
    const go = () => {
      paused.delete(go);
      if (!res.destroyed) rest(pauseAfter);
    };
    paused.add(go);
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    apiKey,
    models,
    requests,
    next: (...answers) => {
      queue.push(...answers);
    },
    nextEmbeddings: (...answers) => {
      embeddingQueue.push(...answers);
    },
    open: () => open,
    release: () => {
      for (const go of [...paused]) go();
    },
    quirks: (changed) => {
      quirks = { ...quirks, ...changed };
    },
    reset: () => {
      quirks = { ...startQuirks };
      queue.length = 0;
      embeddingQueue.length = 0;
      requests.length = 0;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The names of the function tools a request offers, or OpenAI's 400 for the first one that is
 * not well formed (a name outside ^[a-zA-Z0-9_-]{1,64}$, parameters that are not an object).
 */
function toolNames(tools: unknown): string[] | { error: true; status: number; body: unknown } {
  if (tools === undefined) return [];
  const refuse = (param: string, message: string) => ({
    error: true as const,
    ...error(400, `Invalid '${param}': ${message}`, 'invalid_request_error', 'invalid_value', param),
  });
  if (!Array.isArray(tools)) return refuse('tools', 'expected an array.');
  const names: string[] = [];
  for (const [i, tool] of tools.entries()) {
    const fn = (tool as { type?: unknown; function?: { name?: unknown; parameters?: unknown } })?.function;
    if ((tool as { type?: unknown })?.type !== 'function' || !fn)
      return refuse(`tools[${i}].type`, "expected 'function'.");
    if (typeof fn.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(fn.name))
      return refuse(
        `tools[${i}].function.name`,
        "string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
      );
    if (fn.parameters !== undefined && (typeof fn.parameters !== 'object' || fn.parameters === null))
      return refuse(`tools[${i}].function.parameters`, 'expected an object.');
    names.push(fn.name);
  }
  return names;
}

/** About four characters a token, as OpenAI's rule of thumb says. */
const countTokens = (text: string) => Math.ceil(text.length / 4);

/** A value of the schema's shape: the fake's structured answer when none is scripted. */
function sample(schema: Record<string, unknown> | undefined): unknown {
  const type = schema?.type;
  if (type === 'object') {
    const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
    return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, sample(v)]));
  }
  if (type === 'number' || type === 'integer') return 0;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  return 'ok';
}

/** Words hashed into `size` buckets, normalised: texts sharing words have a high dot product. */
export function bagOfWords(text: string, size: number): number[] {
  const vector = new Array<number>(size).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const hash = createHash('sha1').update(word).digest();
    vector[hash.readUInt32BE(0) % size] += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((x) => x / norm);
}
