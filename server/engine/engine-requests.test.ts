import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineHarness } from './testing/engine-harness';
import { type FakeApi, startFakeApi } from './testing/fake-api-server';

let h: EngineHarness;
let api: FakeApi;
beforeAll(async () => {
  h = await EngineHarness.create();
  api = await startFakeApi();
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

const start = (text: string) => ({ id: 1, kind: 'start' as const, text, trigger: { alternatives: '' } });

describe('block requests', () => {
  it('GET with substituted URL and headers; JSON reply fills stored values and custom_answer', async () => {
    const bot = await h.bot({
      blocks: [
        {
          ...start('First: #{first} at #{price}; status #{custom_answer}'),
          formula: "q = 'a b&c'\ntoken = 'secret'",
          request: {
            type: 'GET',
            url: `${api.url}/json?q=#{q}`,
            headers: '{"x-token": "#{token}"}',
            storedValues:
              'data|items|0|name->first; data|items|0|price->client.price_var; data|items|5|name->missing',
          },
        },
      ],
      arrows: [],
    });
    const [reply] = await bot.say('hi');
    expect(reply).toContain('First: Pizza at ');
    const last = api.requests.at(-1)!;
    expect(last.path).toBe('/json?q=a%20b%26c');
    expect(last.headers['x-token']).toBe('secret');
    const vars = await bot.variables();
    expect(vars.deal.first).toBe('Pizza');
    expect(vars.client.price_var).toBe('42');
    const [log] = await bot.log('request');
    expect(log).toMatchObject({
      status: 200,
      stored: [
        { variable: 'first', value: 'Pizza' },
        { variable: 'client.price_var', value: '42' },
      ],
    });
    expect((log.errors as string[]).join()).toMatch(/missing/);
  });

  it('evaluates #{expressions} when each text is sent: after the stored values, in buttons and hints too', async () => {
    const bot = await h.bot({
      blocks: [
        {
          ...start('Double: #{p * 2}'),
          formula: 'p = 1',
          request: { type: 'GET', url: `${api.url}/json?x=#{p * 2}`, storedValues: 'data|items|0|price->p' },
          buttons: { hint: 'Pick #{p + 1}', buttons: [{ text: 'Pay #{p * 2}' }] },
        },
      ],
      arrows: [],
    });
    const result = await bot.event({ type: 'message', text: 'hi' });
    expect(api.requests.at(-1)!.path).toBe('/json?x=2');
    expect(result.messages.map((m) => m.text)).toEqual(['Double: 84']);
    expect(result.messages[0].buttons).toMatchObject({ hint: 'Pick 43', buttons: [{ text: 'Pay 84' }] });
  });

  it('POST-json keeps substituted values as strings unless written without quotes; POST-data sends a form', async () => {
    const bot = await h.bot({
      blocks: [
        {
          ...start('#{custom_answer}'),
          formula: 'n = 5\nwho = \'A "quoted" name\'',
          request: {
            type: 'POST-json',
            url: `${api.url}/echo`,
            params: '{"count": #{n}, "as_text": "#{n}", "who": "#{who}"}',
          },
        },
      ],
      arrows: [],
    });
    const [reply] = await bot.say('hi');
    const echoed = JSON.parse(reply);
    expect(echoed.type).toBe('application/json');
    expect(JSON.parse(echoed.body)).toEqual({ count: 5, as_text: '5', who: 'A "quoted" name' });

    const form = await h.bot({
      blocks: [
        {
          ...start('#{custom_answer}'),
          request: { type: 'POST-data', url: `${api.url}/echo`, params: '{"a": "1", "b": "x y"}' },
        },
      ],
      arrows: [],
    });
    const formEcho = JSON.parse((await form.say('hi'))[0]);
    expect(formEcho).toMatchObject({ type: 'application/x-www-form-urlencoded', body: 'a=1&b=x+y' });
  });

  it('text replies fill custom_answer only; errors, slow and huge replies are logged, the bot goes on', async () => {
    const text = await h.bot({
      blocks: [
        {
          ...start('got: #{custom_answer}'),
          request: { type: 'GET', url: `${api.url}/text`, storedValues: 'a->b' },
        },
      ],
      arrows: [],
    });
    expect(await text.say('hi')).toEqual(['got: plain reply']);
    expect((await text.log('request'))[0].errors).toEqual([expect.stringContaining('not JSON')]);

    const failing = await h.bot({
      blocks: [{ ...start('after error'), request: { type: 'GET', url: `${api.url}/error` } }],
      arrows: [],
    });
    expect(await failing.say('hi')).toEqual(['after error']);
    expect((await failing.log('request'))[0]).toMatchObject({ status: 500 });

    const huge = await h.bot({
      blocks: [{ ...start('after huge'), request: { type: 'GET', url: `${api.url}/huge` } }],
      arrows: [],
    });
    expect(await huge.say('hi')).toEqual(['after huge']);
    expect(((await huge.log('request'))[0].errors as string[])[0]).toMatch(/too large|larger|limit/i);
  });

  it('stores replies holding NUL bytes with U+FFFD in their place, and says so in the log', async () => {
    const block = await h.bot({
      blocks: [
        {
          ...start('got #{custom_answer}'),
          request: { type: 'GET', url: `${api.url}/nul-text` },
        },
      ],
      arrows: [],
    });
    expect(await block.say('hi')).toEqual(['got bin\uFFFDary']);
    expect((await block.log('request'))[0]).toMatchObject({
      reply: 'bin\uFFFDary',
      errors: [expect.stringContaining('NUL')],
    });

    const stored = await h.bot({
      blocks: [
        {
          ...start('#{n}'),
          formula: [
            `t = requests_get('${api.url}/nul-text', 'text')`,
            `j = requests_get('${api.url}/nul-json', 'json')`,
            `whole = requests_get('${api.url}/nul-json')`,
          ].join('\n'),
          request: { type: 'GET', url: `${api.url}/nul-json`, storedValues: 'name->n' },
        },
      ],
      arrows: [],
    });
    expect(await stored.say('hi')).toEqual(['a\uFFFDb']);
    const { deal } = await stored.variables();
    expect(deal.t).toBe('bin\uFFFDary');
    expect(JSON.parse(deal.j)).toEqual({ name: 'a\uFFFDb', 'key\uFFFD': 'c' });
    expect(deal.n).toBe('a\uFFFDb');
    const calls = await stored.log('function');
    expect(calls).toHaveLength(3);
    for (const call of calls) expect(call.notes).toEqual([expect.stringContaining('NUL')]);
  });

  it('submits a value a JSON reply gave holding half an emoji (a lone surrogate), with U+FFFD in its place', async () => {
    const bot = await h.bot({
      blocks: [
        start('hi'),
        {
          id: 2,
          kind: 'data_transfer' as const,
          text: 'noted',
          request: { type: 'GET' as const, url: `${api.url}/half-emoji-json`, storedValues: 'name->n' },
        },
      ],
      arrows: [{ id: 1, from: 1, to: 2, kind: 'unconditional' as const }],
    });
    await bot.say('hi');
    // The reply's value is submitted in the event that fetched it.
    expect(await bot.say('again')).toEqual(['noted']);
    const submission = await bot.db.submission.findFirstOrThrow({ where: { projectId: bot.projectId } });
    expect(submission.variables).toEqual({ n: 'a\ufffdb' });
  });

  it('logs a reply cut in the middle of an emoji, the half left as U+FFFD', async () => {
    // Nothing the client sent: the log's own cut makes the lone surrogate jsonb would refuse.
    const bot = await h.bot({
      blocks: [{ ...start('done'), request: { type: 'GET' as const, url: `${api.url}/emoji-at-cut` } }],
      arrows: [],
    });
    expect(await bot.say('hi')).toEqual(['done']);
    const [log] = await bot.log('request');
    expect((log.reply as string).slice(-2)).toBe('a\ufffd');
  });

  it('refuses private addresses that are not allowed, with a clear error', async () => {
    const bot = await h.bot({
      blocks: [
        { ...start('after'), request: { type: 'GET', url: 'http://169.254.169.254/latest/meta-data' } },
      ],
      arrows: [],
    });
    expect(await bot.say('hi')).toEqual(['after']);
    expect(((await bot.log('request'))[0].errors as string[])[0]).toMatch(/169\.254\.169\.254/);
  });

  it('runs a condition request each time its condition is checked, before the comparison expression', async () => {
    const bot = await h.bot({
      blocks: [
        start('ask'),
        { id: 2, kind: 'state', text: 'in stock: #{stock_name}' },
        { id: 3, kind: 'state', text: 'no' },
      ],
      arrows: [
        {
          id: 1,
          from: 1,
          to: 2,
          kind: 'condition',
          condition: { alternatives: 'check', expression: "stock_name == 'Pizza'" },
          request: { type: 'GET', url: `${api.url}/json`, storedValues: 'data|items|0|name->stock_name' },
        },
        { id: 2, from: 1, to: 3, kind: 'unconditional' },
      ],
    });
    await bot.say('hi');
    expect(await bot.say('check')).toEqual(['in stock: Pizza']);
  });
});
