import type { Difference } from '@/lib/conversation-tests/results';
import type { AiStub, MessengerStub, RequestStub, TestStubs } from '@/lib/conversation-tests/test-case';
import type { AiCallOutcome, AiCallRequest } from '@/server/ai/ai-call';
import type { HttpClient } from '@/server/engine/block-request';
import type { TestRunHooks } from '@/server/engine/test-run';
import type { SafeResponse } from '@/server/http';

/**
 * A test's answers to what its bot asks of the world (docs/conversation-tests.md, "Stubs"):
 * requests, AI calls and messenger functions are answered by the test's stubs, the first that
 * matches (a `once` stub answers one call, in order); nothing reaches the network unless the step
 * is `live`. A call no stub answers fails the call and the step, naming what was asked.
 */
export class StubAnswers {
  readonly #spent = new Set<object>();
  /** The step being run says `live`: its requests and AI calls go out. */
  live = false;
  /** The first call of the step that no stub answered. */
  unanswered: Omit<Difference, 'blockId'> | null = null;

  constructor(
    private readonly stubs: TestStubs,
    private readonly network: HttpClient,
    /** Moves the test's clock on by a stub's delay. */
    private readonly wait: (ms: number) => void,
  ) {}

  #take<T extends object & { once?: boolean }>(
    list: readonly T[],
    matches: (stub: T) => boolean,
  ): T | undefined {
    const stub = list.find((s) => !this.#spent.has(s) && matches(s));
    if (stub?.once) this.#spent.add(stub);
    return stub;
  }

  #miss(field: string, expected: string, actual: string, message: string): Error {
    this.unanswered ??= { field, expected, actual, message };
    return new Error(message);
  }

  readonly http: HttpClient = async (url, init) => {
    if (this.live) return this.network(url, init);
    const method = (init?.method ?? 'GET').toUpperCase();
    const stub = this.#take(this.stubs.requests, (s) => requestMatches(s, method, url));
    if (!stub)
      throw this.#miss(
        'request',
        'a stub for this request, or a live step',
        `${method} ${url}`,
        `No stub answers ${method} ${url}: add one to the test's stubs (or mark the step live).`,
      );
    this.wait(stub.delayMs);
    const bytes = new TextEncoder().encode(stub.body);
    return {
      status: stub.status,
      headers: { 'content-type': 'application/json', ...lowerCased(stub.headers) },
      body: stub.body,
      bytes,
      url,
      durationMs: stub.delayMs,
    } satisfies SafeResponse;
  };

  readonly hooks = (timeZone: string | undefined): TestRunHooks => ({
    timeZone,
    ai: async (request, where, live) => (this.live ? live() : this.#ai(request, where)),
    messenger: async (name, args) => this.#messenger(name, args),
  });

  async #ai(request: AiCallRequest, where: Record<string, unknown>): Promise<AiCallOutcome> {
    const blockId = typeof where.blockId === 'number' ? where.blockId : undefined;
    const stub = this.#take(this.stubs.ai, (s) => s.blockId === undefined || s.blockId === blockId);
    if (!stub) {
      const place = blockId ? `block ${blockId}'s AI call` : 'the assistant';
      const message = `No AI stub answers ${place}: add one to the test's stubs (or mark the step live).`;
      this.#miss('ai', 'an AI stub, or a live step', place, message);
      return { ok: false, reason: 'no_stub', message, provider: request.provider };
    }
    return aiAnswer(stub, request);
  }

  async #messenger(name: string, args: unknown[]): Promise<unknown> {
    const stub = this.#take(this.stubs.messenger, (s: MessengerStub) => s.function === name);
    if (!stub) return { simulated: true, fn: name, args };
    try {
      return JSON.parse(stub.result);
    } catch {
      throw this.#miss('messenger', 'a JSON result', stub.result, `The stub of ${name} is not JSON.`);
    }
  }
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

export function requestMatches(stub: RequestStub, method: string, url: string): boolean {
  if (stub.method && stub.method !== method) return false;
  if (stub.match === 'exact') return url === stub.url;
  if (stub.match === 'prefix') return url.startsWith(stub.url);
  try {
    return new RegExp(stub.url, 'u').test(url);
  } catch {
    return false;
  }
}

/** A stub as the provider's answer: JSON for a structured request (the AI choice of arrow's `{"option": 2}`). */
function aiAnswer(stub: AiStub, request: AiCallRequest): AiCallOutcome {
  let json: unknown;
  if (request.jsonSchema) {
    try {
      json = JSON.parse(stub.text);
    } catch {
      json = undefined;
    }
  }
  return {
    ok: true,
    text: stub.text,
    json,
    toolCalls: stub.toolCall
      ? [{ name: stub.toolCall.name, arguments: parseArguments(stub.toolCall.arguments) }]
      : undefined,
    provider: request.provider,
    model: 'test stub',
    usage: { inputTokens: 0, outputTokens: 0, estimated: false },
    parameters: { tokenParameter: 'max_tokens', temperature: true, system: true },
    learned: false,
    ms: 0,
    attempts: 1,
  };
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
