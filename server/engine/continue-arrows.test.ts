import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BLOCKS_PER_EVENT } from './run-state';
import { EngineHarness } from './testing/engine-harness';

let h: EngineHarness;
beforeAll(async () => {
  h = await EngineHarness.create();
});
afterAll(() => h?.close());

const entry = (id: number, text: string) => ({
  id,
  kind: 'start' as const,
  text,
  trigger: { alternatives: '' },
});

describe('continue arrows (bot-semantics §2)', () => {
  it('follow at once in the same event: the client gets every message and ends in the last block', async () => {
    const bot = await h.bot({
      blocks: [
        entry(1, 'Welcome'),
        { id: 2, kind: 'not_state', text: 'I am the shop bot' },
        { id: 3, kind: 'state', text: 'Menu: prices or hours?' },
        { id: 4, kind: 'state', text: 'Prices: 10 EUR' },
      ],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'continue' },
        { id: 2, from: 2, to: 3, kind: 'continue' },
        { id: 3, from: 3, to: 4, kind: 'condition', condition: { alternatives: 'prices' } },
      ],
    });
    expect(await bot.say('hi')).toEqual(['Welcome', 'I am the shop bot', 'Menu: prices or hours?']);
    expect((await bot.clientRow()).currentBlockId).toBe(3);
    expect((await bot.log('block')).map((b) => [b.blockId, b.via])).toEqual([
      [1, 'entry'],
      [2, 'continue'],
      [3, 'continue'],
    ]);
    // The menu waits: the next reply is routed from block 3.
    expect(await bot.say('prices')).toEqual(['Prices: 10 EUR']);
  });

  it('do not wait for a reply, and are not taken by one', async () => {
    const bot = await h.bot({
      blocks: [
        entry(1, 'Hello'),
        { id: 2, kind: 'state', text: 'Asked' },
        { id: 3, kind: 'state', text: 'Continued' },
      ],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'unconditional' },
        { id: 2, from: 2, to: 3, kind: 'continue' },
        { id: 3, from: 3, to: 3, kind: 'condition', condition: { alternatives: 'again' } },
      ],
    });
    expect(await bot.say('hi')).toEqual(['Hello']);
    expect(await bot.say('anything')).toEqual(['Asked', 'Continued']);
    // In block 3 with no matching arrow: the continue arrow out of 2 is not a reply route.
    expect(await bot.say('anything')).toEqual([]);
  });

  it('follow when the block is entered by the API, after its timers are scheduled', async () => {
    const bot = await h.bot({
      blocks: [
        entry(1, 'Hello'),
        { id: 2, kind: 'state', text: 'Order received' },
        { id: 3, kind: 'state', text: 'Anything else?' },
        { id: 4, kind: 'not_state', text: 'Still there?' },
      ],
      arrows: [
        { id: 1, from: 2, to: 4, kind: 'timer', timer: { delay: 1, unit: 'hours' }, cancelIfLeft: false },
        { id: 2, from: 2, to: 3, kind: 'continue' },
      ],
    });
    await bot.say('hi');
    const result = await bot.event({ type: 'enter_block', blockId: 2, messageFromOutside: 1 });
    expect(result.messages.map((m) => m.text)).toEqual(['Order received', 'Anything else?']);
    expect((await bot.clientRow()).currentBlockId).toBe(3);
    expect(await bot.log('timer_scheduled')).toHaveLength(1);
  });

  it('a loop of continue arrows stops at the block bound with a clear log entry', async () => {
    const bot = await h.bot({
      blocks: [entry(1, 'tick'), { id: 2, kind: 'state', text: 'tock' }],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'continue' },
        { id: 2, from: 2, to: 1, kind: 'continue' },
      ],
    });
    expect(await bot.say('go')).toHaveLength(MAX_BLOCKS_PER_EVENT);
    expect(await bot.log('loop_guard')).toEqual([
      expect.objectContaining({
        limit: 'blocks',
        message: expect.stringMatching(/Stopped after 50 blocks in one event: .*loop of continue arrows/),
      }),
    ]);
    // The event's writes are kept: the client is where the loop stopped, and the next message is handled.
    expect((await bot.clientRow()).currentBlockId).toBe(2);
    expect(await bot.say('again')).toEqual([]);
  });
});
