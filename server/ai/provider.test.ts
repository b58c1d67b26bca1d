import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '@/server/testing/wait-for';
import { type AiEndpoint, AiProviderError, chat, embed, keyHeader } from './provider';
import { type FakeOpenAi, startFakeOpenAi } from './testing/fake-openai';

let fake: FakeOpenAi;
let endpoint: AiEndpoint;
const allowed = process.env.BLOCKBOT_HTTP_ALLOW_HOSTS;

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  fake = await startFakeOpenAi({ dimensions: 32 });
  endpoint = {
    baseUrl: fake.url,
    apiKey: fake.apiKey,
    chatModel: 'gpt-4o-mini',
    embeddingModel: 'text-embedding-3-small',
  };
});
afterAll(async () => {
  await fake?.close();
  if (allowed === undefined) delete process.env.BLOCKBOT_HTTP_ALLOW_HOSTS;
  else process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = allowed;
});
beforeEach(() => {
  fake.requests.length = 0;
});

const hello = { messages: [{ role: 'user' as const, content: 'Hello' }] };
const options = { timeoutMs: 5_000 };

async function failure(call: Promise<unknown>): Promise<AiProviderError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AiProviderError);
  return error as AiProviderError;
}

describe('chat completions', () => {
  it('sends the system prompt, the turns, temperature and token limit, with the key as Bearer', async () => {
    fake.next({ text: 'Hi there!', usage: { prompt_tokens: 12, completion_tokens: 3 } });
    const answer = await chat(
      endpoint,
      { system: 'Be brief.', ...hello, temperature: 0.2, maxTokens: 50 },
      options,
    );
    expect(answer).toEqual({
      text: 'Hi there!',
      usage: { inputTokens: 12, outputTokens: 3, estimated: false },
      parameters: { tokenParameter: 'max_tokens', temperature: true, system: true },
    });
    const [request] = fake.requests;
    expect(request.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      temperature: 0.2,
      max_tokens: 50,
    });
  });

  it('streams the answer piece by piece, in order, with the usage of the last chunk', async () => {
    fake.next({ text: 'One two three four', usage: { prompt_tokens: 5, completion_tokens: 4 } });
    const pieces: string[] = [];
    const answer = await chat(endpoint, hello, { ...options, onText: (d) => pieces.push(d) });
    expect(pieces.join('')).toBe('One two three four');
    expect(pieces.length).toBeGreaterThan(1);
    expect(answer.usage).toEqual({ inputTokens: 5, outputTokens: 4, estimated: false });
    expect(fake.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('asks for structured output by JSON schema and parses the answer', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    fake.next({ json: { city: 'Lyon' } });
    const answer = await chat(endpoint, { ...hello, jsonSchema: schema }, { ...options, onText: () => {} });
    expect(answer.json).toEqual({ city: 'Lyon' });
    // Structured answers are never streamed: half a JSON object is nothing to show.
    expect(fake.requests[0].body).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
    });
    expect(fake.requests[0].body?.stream).toBeUndefined();
  });

  it('refuses a structured answer that is not JSON, naming the model', async () => {
    fake.next({ text: 'Lyon, I think' });
    const error = await failure(chat(endpoint, { ...hello, jsonSchema: { type: 'object' } }, options));
    expect(error.kind).toBe('bad_answer');
    expect(error.message).toContain('gpt-4o-mini');
  });

  const handOff = {
    name: 'hand_off',
    description: 'Hand the conversation to a person.',
    parameters: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] },
  };

  it('offers tools and reads the calls the model makes, plain and streamed', async () => {
    fake.next({ toolCalls: [{ name: 'hand_off', arguments: { reason: 'asks for a person' } }] });
    const plain = await chat(endpoint, { ...hello, tools: [handOff] }, options);
    expect(plain.toolCalls).toEqual([{ name: 'hand_off', arguments: { reason: 'asks for a person' } }]);
    expect(plain.text).toBe('');
    expect(fake.requests[0].body?.tools).toEqual([
      {
        type: 'function',
        function: { name: 'hand_off', description: handOff.description, parameters: handOff.parameters },
      },
    ]);
    // Streamed: the text as it comes, the call's arguments gathered from their pieces.
    fake.next({
      text: 'An operator will answer you shortly.',
      toolCalls: [{ name: 'hand_off', arguments: { reason: 'billing question, not sure' } }],
    });
    const pieces: string[] = [];
    const streamed = await chat(
      endpoint,
      { ...hello, tools: [handOff] },
      { ...options, onText: (d) => pieces.push(d) },
    );
    expect(pieces.join('')).toBe('An operator will answer you shortly.');
    expect(streamed.toolCalls).toEqual([
      { name: 'hand_off', arguments: { reason: 'billing question, not sure' } },
    ]);
    // Without tools offered there are no calls to read.
    fake.next({ text: 'Hello!' });
    expect((await chat(endpoint, hello, options)).toolCalls).toBeUndefined();
  });

  it('names a tool the provider refuses, and a call whose arguments are not JSON', async () => {
    const refused = await failure(
      chat(endpoint, { ...hello, tools: [{ ...handOff, name: 'hand off' }] }, options),
    );
    expect(refused).toMatchObject({ kind: 'bad_request', status: 400 });
    expect(refused.message).toContain('tools[0].function.name');
    fake.next({ toolCalls: [{ name: 'hand_off', arguments: {}, rawArguments: '{"reason": "asks f' }] });
    const halfJson = await failure(chat(endpoint, { ...hello, tools: [handOff] }, options));
    expect(halfJson.kind).toBe('bad_answer');
  });

  it('says a connection closed under the request is unreachable, before or during the answer', async () => {
    fake.next({ drop: 'before' });
    expect(await failure(chat(endpoint, hello, options))).toMatchObject({ kind: 'unreachable' });
    fake.next({ drop: 'midway' });
    const midway = await failure(chat(endpoint, hello, options));
    expect(midway.kind).toBe('unreachable');
    fake.next({ text: 'back again' });
    expect((await chat(endpoint, hello, options)).text).toBe('back again');
  });

  it('says the key was refused, without repeating it', async () => {
    const error = await failure(chat({ ...endpoint, apiKey: 'sk-wrong-key-1234567890' }, hello, options));
    expect(error).toMatchObject({ kind: 'auth', status: 401 });
    expect(error.message).toContain('Settings, Secrets');
    expect(error.message).toContain('invalid_api_key');
    expect(error.message).not.toContain('sk-wrong-key-1234567890');
    // OpenAI's own message repeats the key's end (sk-*****7890): cut out too.
    expect(error.message).not.toContain('7890');
  });

  it('passes on the rate limit with its retry-after, in seconds or as a date', async () => {
    fake.next({ status: 429, retryAfter: 20 });
    const error = await failure(chat(endpoint, hello, options));
    expect(error).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterSeconds: 20,
      transient: true,
    });
    expect(error.message).toContain('rate_limit_exceeded');
    fake.next({ status: 429, retryAfter: new Date(Date.now() + 600_000) });
    const dated = await failure(chat(endpoint, hello, options));
    // An HTTP date has whole seconds: ten minutes from now, less the part of a second cut.
    expect(dated.retryAfterSeconds).toBeGreaterThanOrEqual(599);
    expect(dated.retryAfterSeconds).toBeLessThanOrEqual(600);
  });

  it('says a quota spent is no rate limit: final, in the provider’s words', async () => {
    fake.next({ status: 429, code: 'insufficient_quota' });
    const error = await failure(chat(endpoint, hello, options));
    expect(error).toMatchObject({ kind: 'quota', status: 429, transient: false });
    expect(error.message).toContain(
      'You exceeded your current quota, please check your plan and billing details',
    );
    expect(error.message).toContain('insufficient_quota');
  });

  it('names a server error, an unknown model and a refused request', async () => {
    fake.next({ status: 500 });
    expect(await failure(chat(endpoint, hello, options))).toMatchObject({
      kind: 'provider_error',
      status: 500,
    });
    const unknown = await failure(chat({ ...endpoint, chatModel: 'gpt-9' }, hello, options));
    expect(unknown).toMatchObject({ kind: 'not_found' });
    expect(unknown.message).toContain('gpt-9');
    const refused = await failure(chat(endpoint, { messages: [] }, options));
    expect(refused).toMatchObject({ kind: 'bad_request', status: 400 });
    expect(refused.message).toContain("'messages'");
  });

  it('refuses malformed JSON, and an answer over the cap', async () => {
    fake.next({ malformed: true });
    expect(await failure(chat(endpoint, hello, options))).toMatchObject({ kind: 'bad_answer' });
    fake.next({ hugeBytes: 50_000 });
    expect(await failure(chat(endpoint, hello, { ...options, maxAnswerBytes: 10_000 }))).toMatchObject({
      kind: 'too_large',
    });
  });

  it('cuts an endless stream at the cap, and a hanging provider at the timeout', async () => {
    fake.next({ endless: true });
    const endless = await failure(
      chat(endpoint, hello, { ...options, maxAnswerBytes: 20_000, onText: () => {} }),
    );
    expect(endless.kind).toBe('too_large');
    fake.next({ endless: true });
    expect(await failure(chat(endpoint, hello, { timeoutMs: 300, onText: () => {} }))).toMatchObject({
      kind: 'timeout',
    });
    fake.next({ hang: true });
    const hung = await failure(chat(endpoint, hello, { timeoutMs: 300 }));
    expect(hung.kind).toBe('timeout');
    await waitFor(async () => fake.open() === 0, 'the cut requests closed');
  });

  it('says an address the policy refuses is unreachable, and how to allow it', async () => {
    process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '';
    try {
      const error = await failure(chat(endpoint, hello, options));
      expect(error.kind).toBe('unreachable');
      expect(error.message).toContain('BLOCKBOT_HTTP_ALLOW_HOSTS');
    } finally {
      process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
    }
  });
});

describe('what each server does differently', () => {
  const reasoner = () => ({ ...endpoint, chatModel: 'prod-chat' });
  const asked = () =>
    fake.requests.map(({ body }) => ({
      max_tokens: body?.max_tokens,
      max_completion_tokens: body?.max_completion_tokens,
      temperature: body?.temperature,
    }));
  beforeEach(() => fake.reset());

  it('a reasoning model’s refusals are learnt, tried again at once, and heard', async () => {
    fake.quirks({ reasoningModels: ['prod-chat'] });
    fake.next({ text: 'Thought it through.' });
    const heard: unknown[] = [];
    const answer = await chat(
      reasoner(),
      { ...hello, temperature: 0.2, maxTokens: 300 },
      { ...options, onParameters: (p) => heard.push(p) },
    );
    expect(answer.text).toBe('Thought it through.');
    expect(answer.parameters).toEqual({
      tokenParameter: 'max_completion_tokens',
      temperature: false,
      system: true,
    });
    expect(asked()).toEqual([
      { max_tokens: 300, max_completion_tokens: undefined, temperature: 0.2 },
      { max_tokens: undefined, max_completion_tokens: 300, temperature: 0.2 },
      { max_tokens: undefined, max_completion_tokens: 300, temperature: undefined },
    ]);
    expect(heard).toEqual([
      { tokenParameter: 'max_completion_tokens', temperature: true, system: true },
      { tokenParameter: 'max_completion_tokens', temperature: false, system: true },
    ]);
  });

  it('parameters the settings fix are not changed: the refusal says which setting to change', async () => {
    fake.quirks({ reasoningModels: ['prod-chat'] });
    const error = await failure(
      chat(
        reasoner(),
        {
          ...hello,
          maxTokens: 300,
          parameters: {
            tokenParameter: 'max_tokens',
            temperature: false,
            system: true,
            adapt: { tokenParameter: false, temperature: true, system: true },
          },
        },
        options,
      ),
    );
    expect(error).toMatchObject({ kind: 'bad_request', status: 400 });
    expect(error.message).toContain("Unsupported parameter: 'max_tokens'");
    expect(error.message).toContain('set Token parameter to automatic or max_completion_tokens');
    expect(fake.requests).toHaveLength(1);
  });

  it('a reasoning model that spent its max tokens thinking has not answered, and says what to raise', async () => {
    fake.quirks({ reasoningModels: ['o4-mini'] });
    fake.next({ text: '', cut: true, usage: { prompt_tokens: 9, completion_tokens: 300 } });
    const error = await failure(
      chat({ ...endpoint, chatModel: 'o4-mini' }, { ...hello, maxTokens: 300 }, options),
    );
    expect(error.kind).toBe('bad_answer');
    expect(error.message).toContain('spent all 300 max tokens before answering');
    // An answer cut with text is an answer.
    fake.next({ text: 'Half an', cut: true }, { text: 'Half an', cut: true });
    expect((await chat(endpoint, hello, options)).text).toBe('Half an');
    expect((await chat(endpoint, hello, { ...options, onText: () => {} })).text).toBe('Half an');
  });

  it('roles alternate from the client’s first turn, one role’s turns joined, the system first', async () => {
    fake.quirks({ strictRoles: true });
    fake.next({ text: 'Fine.' });
    await chat(
      endpoint,
      {
        system: 'Be brief.',
        messages: [
          { role: 'assistant', content: 'Welcome!' },
          { role: 'user', content: 'hi' },
          { role: 'user', content: 'Answer hi' },
          { role: 'assistant', content: 'One.' },
          { role: 'assistant', content: 'Two.' },
          { role: 'user', content: 'and?' },
        ],
      },
      options,
    );
    expect(fake.requests[0].body?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi\n\nAnswer hi' },
      { role: 'assistant', content: 'One.\n\nTwo.' },
      { role: 'user', content: 'and?' },
    ]);
  });

  it('a template that refuses a system message (Gemma’s) gets the system prompt in the first user turn, learnt', async () => {
    fake.quirks({ strictRoles: true, systemRole: false });
    fake.next({ text: 'Hello.' });
    const heard: unknown[] = [];
    const answer = await chat(
      endpoint,
      {
        system: 'Be brief.',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'Hi!' },
          { role: 'user', content: 'hours?' },
        ],
      },
      { ...options, onParameters: (p) => heard.push(p) },
    );
    expect(answer).toMatchObject({ text: 'Hello.', parameters: { system: false } });
    expect(heard).toEqual([{ tokenParameter: 'max_tokens', temperature: true, system: false }]);
    expect(fake.requests.map((r) => r.body?.messages)).toEqual([
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hi!' },
        { role: 'user', content: 'hours?' },
      ],
      [
        { role: 'user', content: 'Be brief.\n\nhi' },
        { role: 'assistant', content: 'Hi!' },
        { role: 'user', content: 'hours?' },
      ],
    ]);
  });

  it('a strict template’s refusal is named, as vLLM words it', async () => {
    fake.quirks({ strictRoles: true });
    const raw = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
        ],
      }),
    });
    expect(raw.status).toBe(400);
    expect(JSON.stringify(await raw.json())).toContain('Conversation roles must alternate');
  });

  it('an error event mid-stream fails the call, in either form', async () => {
    for (const form of ['data', 'field'] as const) {
      fake.next({
        text: 'Half of this answer arrives before the GPU fails.',
        streamError: { after: 3, form },
      });
      const pieces: string[] = [];
      const error = await failure(chat(endpoint, hello, { ...options, onText: (d) => pieces.push(d) }));
      expect(error).toMatchObject({ kind: 'provider_error', status: 500, transient: true });
      expect(error.message).toContain('in the middle of its answer');
      expect(error.message).toContain('illegal memory access');
      expect(pieces.join('')).toBe('Half of this ');
    }
  });

  const handOff = {
    name: 'hand_off',
    description: 'Hand the conversation to a person.',
    parameters: { type: 'object', properties: { reason: { type: 'string' } } },
  };
  const lookUp = { ...handOff, name: 'look_up' };

  it('streamed tool calls without an index are read, one call a piece', async () => {
    fake.quirks({ toolCallIndex: false });
    fake.next({
      text: 'Let me check.',
      toolCalls: [
        { name: 'look_up', arguments: { reason: 'order 42' } },
        { name: 'hand_off', arguments: { reason: 'asks for a person' } },
      ],
    });
    const answer = await chat(
      endpoint,
      { ...hello, tools: [handOff, lookUp] },
      { ...options, onText: () => {} },
    );
    expect(answer.toolCalls).toEqual([
      { name: 'look_up', arguments: { reason: 'order 42' } },
      { name: 'hand_off', arguments: { reason: 'asks for a person' } },
    ]);
    const tools = fake.requests[0].body?.tools;
    expect(tools).toHaveLength(2);
  });

  it('a server that reports no usage is counted by estimate, plain, streamed and embedding', async () => {
    fake.quirks({ usage: false });
    fake.next(
      { text: 'Our shop opens at nine every morning.' },
      { text: 'Our shop opens at nine every morning.' },
    );
    const plain = await chat(endpoint, { system: 'Be brief.', ...hello }, options);
    const streamed = await chat(
      endpoint,
      { system: 'Be brief.', ...hello },
      { ...options, onText: () => {} },
    );
    for (const { usage } of [plain, streamed]) {
      expect(usage.estimated).toBe(true);
      // o200k: "Our shop opens at nine every morning." is 8 tokens; the input two messages' words and roles.
      expect(usage.outputTokens).toBe(8);
      expect(usage.inputTokens).toBeGreaterThan(2);
    }
    expect(plain.usage).toEqual(streamed.usage);
    const embedded = await embed(endpoint, ['Our shop opens at nine every morning.'], options);
    expect(embedded.usage).toEqual({ tokens: 8, estimated: true });
    fake.next({ text: 'Counted.', usage: { prompt_tokens: 0, completion_tokens: 0 } });
    fake.quirks({ usage: true });
    // A usage of nothing at all is no count either.
    expect((await chat(endpoint, hello, options)).usage.estimated).toBe(true);
  });
});

describe('embeddings', () => {
  it('embeds a batch in order, similar texts nearer than others, with the tokens counted', async () => {
    const { vectors, usage } = await embed(
      endpoint,
      ['returns within 30 days', 'how many days for returns', 'opening hours'],
      options,
    );
    expect(vectors).toHaveLength(3);
    expect(vectors[0]).toHaveLength(32);
    const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
    expect(dot(vectors[0], vectors[1])).toBeGreaterThan(dot(vectors[0], vectors[2]));
    expect(usage.tokens).toBeGreaterThan(0);
    expect(fake.requests[0].body).toMatchObject({
      model: 'text-embedding-3-small',
      encoding_format: 'float',
    });
  });

  it('asks for the dimensions set, and refuses vectors of another size', async () => {
    await embed({ ...endpoint, embeddingDimensions: 16 }, ['a'], options);
    expect(fake.requests[0].body).toMatchObject({ dimensions: 16 });
    fake.nextEmbeddings({ dimensions: 8 });
    const error = await failure(embed(endpoint, ['a'], { ...options, expectedDimensions: 32 }));
    expect(error.kind).toBe('wrong_dimensions');
    expect(error.message).toContain('8 dimensions, 32 expected');
  });

  it('needs an embedding model', async () => {
    const error = await failure(embed({ ...endpoint, embeddingModel: '' }, ['a'], options));
    expect(error.message).toContain('Settings, AI');
  });
});

describe('the key', () => {
  it('goes in api-key to an Azure host, as Bearer everywhere else, and not at all when empty', () => {
    expect(keyHeader('https://my-resource.openai.azure.com/openai/v1', 'k-123')).toEqual({
      'api-key': 'k-123',
    });
    expect(keyHeader('https://x.services.ai.azure.com/models', 'k-123')).toEqual({ 'api-key': 'k-123' });
    expect(keyHeader('https://api.openai.com/v1', 'sk-1')).toEqual({ authorization: 'Bearer sk-1' });
    expect(keyHeader('https://openai.azure.com.evil.example/v1', 'sk-1')).toEqual({
      authorization: 'Bearer sk-1',
    });
    expect(keyHeader('http://127.0.0.1:11434/v1', '')).toEqual({});
  });
});
