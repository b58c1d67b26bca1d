import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FOLLOW_UPS_PER_CHAIN, MAX_REQUESTS_PER_CHAIN } from './event-chain';
import { MAX_BLOCKS_PER_EVENT } from './run-state';
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

/** `n` lines of a formula, each one outgoing request to the fake API. */
const requests = (n: number, path: string) =>
  Array.from({ length: n }, (_, i) => `r${i} = requests_get('${api.url}${path}', 'status')`).join('\n');

const sentTo = (path: string) => api.requests.filter((r) => r.path === path).length;

describe('one budget of outgoing requests per incoming event and its follow-ups', () => {
  it('three blocks of one event making requests in formulas, block and condition requests: capped in total', async () => {
    const bot = await h.bot({
      blocks: [
        { id: 1, kind: 'start', text: 'hi', trigger: { alternatives: '' } },
        {
          id: 2,
          kind: 'state',
          text: 'two',
          formula: requests(20, '/json?three-blocks'),
          request: { type: 'GET', url: `${api.url}/json?three-blocks` },
        },
        {
          id: 3,
          kind: 'not_state',
          text: 'three',
          formula: requests(20, '/json?three-blocks'),
          request: { type: 'GET', url: `${api.url}/json?three-blocks` },
        },
        {
          id: 4,
          kind: 'not_state',
          text: 'four',
          formula: requests(20, '/json?three-blocks'),
          request: { type: 'GET', url: `${api.url}/json?three-blocks` },
        },
      ],
      arrows: [
        {
          id: 1,
          from: 1,
          to: 2,
          kind: 'condition',
          condition: { alternatives: 'go' },
          request: { type: 'GET', url: `${api.url}/json?three-blocks` },
        },
        { id: 2, from: 2, to: 3, kind: 'timer', timer: { delay: 0 } },
        { id: 3, from: 3, to: 4, kind: 'timer', timer: { delay: 0 } },
      ],
    });
    await bot.say('hello');
    // 1 condition request + 3 × (20 in the formula + 1 block request) = 64 asked for.
    expect(await bot.say('go')).toEqual(['two', 'three', 'four']);
    expect(sentTo('/json?three-blocks')).toBe(MAX_REQUESTS_PER_CHAIN);
    const guards = await bot.log('loop_guard');
    expect(guards).toEqual([
      expect.objectContaining({
        limit: 'requests',
        message: expect.stringMatching(/at most 50 outgoing requests/),
      }),
    ]);
    const errors = (await bot.log('formula_error')).map((e) => e.message);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((m) => /at most 50 outgoing requests/.test(String(m)))).toBe(true);
    const [, , , lastRequest] = await bot.log('request');
    expect(lastRequest.errors).toEqual([expect.stringMatching(/Request not sent/)]);
  });

  it('a two-block loop of 0-second timers is bounded in blocks and in requests', async () => {
    const bot = await h.bot({
      blocks: [
        { id: 1, kind: 'start', text: '', trigger: { alternatives: '' } },
        { id: 2, kind: 'not_state', text: '', formula: requests(10, '/json?loop') },
        { id: 3, kind: 'not_state', text: '', formula: requests(10, '/json?loop') },
      ],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'timer', timer: { delay: 0 } },
        { id: 2, from: 2, to: 3, kind: 'timer', timer: { delay: 0 } },
        { id: 3, from: 3, to: 2, kind: 'timer', timer: { delay: 0 } },
      ],
    });
    await bot.say('hi');
    expect(sentTo('/json?loop')).toBe(MAX_REQUESTS_PER_CHAIN);
    const guards = await bot.log('loop_guard');
    expect(guards.map((g) => g.limit)).toEqual(['requests', 'blocks']);
    expect(await bot.log('block')).toHaveLength(MAX_BLOCKS_PER_EVENT);
  });

  it('a message() chain of one client stops at the block bound', async () => {
    const bot = await h.bot({
      blocks: [
        {
          id: 1,
          kind: 'start',
          text: '',
          trigger: { alternatives: '' },
          formula: "message(client_id, '', 2)",
        },
        { id: 2, kind: 'state', text: '', formula: "message(client_id, '', 1)" },
      ],
      arrows: [],
    });
    await bot.say('hi');
    expect(await bot.log('block')).toHaveLength(MAX_BLOCKS_PER_EVENT);
    expect(await bot.log('loop_guard')).toEqual([
      expect.objectContaining({ limit: 'blocks', message: expect.stringMatching(/message\(\) calls/) }),
    ]);
  });

  it('two clients whose formulas call back each other: the call returns, the chain stops with a log entry', async () => {
    const bot = await h.bot({
      blocks: [
        { id: 1, kind: 'start', text: 'hi', trigger: { alternatives: '' } },
        {
          id: 2,
          kind: 'state',
          text: '',
          // The message is the other client's id; each answer spends requests from one budget too.
          formula: `${requests(3, '/json?ping-pong')}\ncallback(int(question), str(client_id))`,
        },
      ],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'unconditional' },
        { id: 2, from: 2, to: 2, kind: 'unconditional' },
      ],
    });
    const a = bot.client('a');
    const b = bot.client('b');
    await a.say('hello');
    await b.say('hello');
    const bId = (await b.clientRow()).id;

    await a.say(String(bId));

    // The first event and at most MAX_FOLLOW_UPS_PER_CHAIN follow-ups were handled.
    const pings = [...(await a.transcript()), ...(await b.transcript())].filter((t) => /^> \d+$/.test(t));
    expect(pings).toHaveLength(1 + MAX_FOLLOW_UPS_PER_CHAIN);
    expect(sentTo('/json?ping-pong')).toBe(MAX_REQUESTS_PER_CHAIN);
    const guards = [...(await a.log('loop_guard')), ...(await b.log('loop_guard'))];
    expect(guards).toContainEqual(
      expect.objectContaining({ limit: 'follow_ups', message: expect.stringMatching(/at most 20 events/) }),
    );
  }, 30_000);
});
