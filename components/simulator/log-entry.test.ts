import { describe, expect, it } from 'vitest';
import { describeLogEntry } from './log-entry';

describe('the simulator log in words', () => {
  it('says where the message came from and which block was entered, and how', () => {
    expect(describeLogEntry('event', { text: 'hi', from: 0 }).title).toBe('Message from the client: "hi"');
    expect(describeLogEntry('event', { text: 'go', from: 3 }).title).toBe('Message from the callback: "go"');
    expect(describeLogEntry('block', { blockId: 2, name: 'Prices', kind: 'state', via: 'arrow' }).title).toBe(
      'Entered block #2 "Prices" (state) through an arrow',
    );
    expect(describeLogEntry('no_match', { text: 'xyz', blockId: 4 }).title).toBe(
      'Nothing matched "xyz" in block #4: no reply, the message is stored',
    );
  });

  it('says which #{name} no variable had', () => {
    expect(describeLogEntry('unknown_variable', { name: 'city', sentBefore: 0 })).toEqual({
      title: '#{city} is not set: it was left empty',
      tone: 'error',
      details: [],
    });
  });

  it('shows a formula run with the variables it set, and errors with their place', () => {
    const ran = describeLogEntry('formula', { blockId: 3, set: { price: '120', tags: ['a'] } });
    expect(ran.title).toBe('Formula of block #3 ran');
    expect(ran.details).toEqual([{ label: 'Variables set', text: 'price = 120\ntags = ["a"]' }]);
    const error = describeLogEntry('formula_error', {
      blockId: 3,
      line: 2,
      column: 5,
      message: 'unknown function lenn()',
    });
    expect(error).toMatchObject({
      tone: 'error',
      title: 'Formula error in block #3 line 2, column 5: unknown function lenn()',
    });
    const expression = describeLogEntry('formula_error', {
      arrowId: 7,
      expression: 'x >',
      message: 'expected a value',
    });
    expect(expression.title).toBe('Formula error on arrow #7: expected a value');
    expect(expression.details).toEqual([{ label: 'Expression', text: 'x >' }]);
  });

  it('shows a request with its headers and body, the reply indented, stored values and errors', () => {
    const entry = describeLogEntry('request', {
      blockId: 5,
      request: {
        method: 'POST',
        url: 'https://api.example.com/o',
        headers: { 'X-Token': 't' },
        body: '{"a":1}',
      },
      status: 200,
      reply: '{"id":42}',
      stored: [{ variable: 'order', value: '42' }],
      errors: [],
    });
    expect(entry.tone).toBe('request');
    expect(entry.title).toBe('Block request in block #5: POST https://api.example.com/o → HTTP 200');
    expect(entry.details).toEqual([
      { label: 'Request', text: 'POST https://api.example.com/o\nX-Token: t\n\n{\n  "a": 1\n}' },
      { label: 'Reply', text: '{\n  "id": 42\n}' },
      { label: 'Stored values', text: 'order = 42' },
    ]);
    const refused = describeLogEntry('request', {
      arrowId: 2,
      request: { method: 'GET', url: 'http://10.0.0.1/', headers: {} },
      stored: [],
      errors: ['Refused address 10.0.0.1'],
    });
    expect(refused.tone).toBe('error');
    expect(refused.title).toBe('Condition request on arrow #2: GET http://10.0.0.1/ → not sent');
    expect(refused.details.at(-1)).toEqual({ label: 'Errors', text: 'Refused address 10.0.0.1' });
  });

  it('describes timers, submissions, functions and errors', () => {
    expect(describeLogEntry('timer_fired', { arrowId: 4, immediate: true }).title).toBe(
      'Timer of arrow #4 fired at once (no delay)',
    );
    expect(
      describeLogEntry('timer_cancelled', { arrowId: 4, reason: 'the client left the block' }).title,
    ).toBe('Timer of arrow #4 cancelled: the client left the block');
    expect(describeLogEntry('timer_scheduled', { arrowId: 4, runAt: '2026-11-23T10:00:00Z' }).tone).toBe(
      'timer',
    );
    const submitted = describeLogEntry('submission', { blockId: 9, variables: { plan: 'Pro' }, kept: false });
    expect(submitted.title).toBe('Deal submitted from block #9 (variables discarded)');
    expect(submitted.details).toEqual([{ label: 'Variables', text: 'plan = Pro' }]);
    expect(describeLogEntry('function', { name: 'message', args: [1, 'hi'], result: true }).details).toEqual([
      { label: 'Arguments', text: '[1,"hi"]' },
      { label: 'Result', text: 'true' },
    ]);
    expect(describeLogEntry('loop_guard', { blockId: 3, message: 'Stopped after 50 blocks' })).toMatchObject({
      tone: 'error',
      title: 'Stopped after 50 blocks in block #3',
    });
    expect(
      describeLogEntry('message_withheld', { blockId: 3, reason: 'its ask_operator() failed' }),
    ).toMatchObject({ tone: 'error', title: "Block #3's message not sent: its ask_operator() failed" });
    expect(describeLogEntry('something_new', { a: 1 }).title).toBe('something_new: {"a":1}');
  });

  it('says what an AI call did, what it cost, why it did not answer, and which chunks it cited', () => {
    const answered = describeLogEntry('ai', {
      blockId: 4,
      provider: 'openai',
      model: 'gpt-4o-mini',
      inputTokens: 120,
      outputTokens: 30,
      ms: 850,
      answer: 'Try the margherita.',
    });
    expect(answered).toMatchObject({
      title: 'AI step in block #4 answered: openai, gpt-4o-mini, 120 + 30 tokens in 850 ms',
      details: [{ label: 'Answer', text: 'Try the margherita.' }],
    });
    expect(
      describeLogEntry('ai', {
        assistant: 'Shop',
        provider: 'p',
        model: 'm',
        inputTokens: 1,
        outputTokens: 1,
        ms: 1,
      }).title,
    ).toMatch(/^Assistant "Shop" answered/);
    expect(
      describeLogEntry('ai', {
        provider: 'p',
        model: 'm',
        inputTokens: 1,
        outputTokens: 1,
        ms: 1,
        attempts: 2,
      }).title,
    ).toMatch(/in 1 ms \(2 attempts\)$/);
    // A server that reports no usage is counted by estimate; a refusal that taught the parameters says so.
    expect(
      describeLogEntry('ai', {
        provider: 'p',
        model: 'm',
        inputTokens: 12,
        outputTokens: 3,
        estimatedTokens: true,
        learned: 'max_completion_tokens, no temperature',
        ms: 1,
        answer: 'Hi',
      }),
    ).toMatchObject({
      title: 'AI step answered: p, m, 12 + 3 tokens (estimated: the server reported none) in 1 ms',
      details: [
        { label: 'Learnt what the model takes', text: 'max_completion_tokens, no temperature' },
        { label: 'Answer', text: 'Hi' },
      ],
    });
    expect(describeLogEntry('assistant_handoff', { assistantId: 1, reason: 'asks for a person' }).title).toBe(
      'The assistant handed the conversation to an operator (asks for a person): the bot is paused for this client',
    );
    expect(
      describeLogEntry('ai_error', {
        blockId: 4,
        reason: 'timeout',
        message: 'the provider did not answer within 60 s',
      }),
    ).toMatchObject({
      tone: 'error',
      title: 'AI in block #4 did not answer (timeout): the provider did not answer within 60 s',
    });
    expect(
      describeLogEntry('knowledge', {
        chunks: [{ chunkId: 7, documentId: 2, title: 'Returns policy', score: 0.8123 }],
      }).details,
    ).toEqual([{ label: 'Cited', text: '[1] Returns policy (chunk 7, score 0.812)' }]);
  });
});
