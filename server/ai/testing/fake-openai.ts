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
 */

export type FakeAnswer =
  | {
      text: string;
      usage?: { prompt_tokens: number; completion_tokens: number };
      /** Streamed: after this many pieces the stream waits for `release()`. */
      pauseAfter?: number;
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
      retryAfter?: number;
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
  /** Forgets the scripted answers not used yet and the requests seen. */
  reset(): void;
  close(): Promise<void>;
}

export interface FakeOpenAiOptions {
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
      if (!models.includes(model)) {
        const e = error(
          404,
          `The model \`${model}\` does not exist or you do not have access to it.`,
          'invalid_request_error',
          'model_not_found',
        );
        return send(res, e.status, e.body);
      }
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
        (scripted.status === 429
          ? 'Rate limit reached for requests. Please try again in 20s.'
          : scripted.status >= 500
            ? 'The server had an error while processing your request. Sorry about that!'
            : 'Invalid request.');
      return send(
        res,
        scripted.status,
        { error: { message, type, param: scripted.param ?? null, code } },
        {
          ...(scripted.retryAfter !== undefined && { 'retry-after': String(scripted.retryAfter) }),
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
      usage: { prompt_tokens: tokens, total_tokens: tokens },
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
    const usage =
      scripted && 'usage' in scripted && scripted.usage
        ? scripted.usage
        : { prompt_tokens: promptTokens, completion_tokens: countTokens(text) };
    const toolCalls = calls.map((c, i) => ({
      id: `call_${requests.length}_${i}`,
      type: 'function',
      function: { name: c.name, arguments: c.rawArguments ?? JSON.stringify(c.arguments) },
    }));
    const finishReason = toolCalls.length ? 'tool_calls' : 'stop';
    const id = `chatcmpl-${requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    const endless = Boolean(scripted && 'endless' in scripted);
    if (!body.stream) {
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
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
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
    const rest = (from: number) => {
      for (const piece of pieces.slice(from))
        event([{ index: 0, delta: { content: piece }, finish_reason: null }]);
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
      if (includeUsage)
        event([], { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
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
    reset: () => {
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
