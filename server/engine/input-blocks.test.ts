import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineHarness } from './testing/engine-harness';

/** Input checks (docs/builder.md, "Input checks"): the engine checks, stores, asks again, exits. */
let h: EngineHarness;
beforeAll(async () => {
  h = await EngineHarness.create();
});
afterAll(() => h?.close());

const emailBot = {
  blocks: [
    { id: 1, kind: 'start' as const, text: 'Hi', trigger: { alternatives: '' } },
    {
      id: 2,
      kind: 'state' as const,
      text: 'Your e-mail?',
      input: { type: 'email' as const, variable: 'client.email', attempts: 3 },
    },
    { id: 3, kind: 'state' as const, text: 'Thanks, we write to #{client.email}' },
    { id: 4, kind: 'state' as const, text: 'Let us talk by phone instead' },
    { id: 5, kind: 'start' as const, text: 'Menu', trigger: { alternatives: 'menu' } },
  ],
  arrows: [
    { id: 1, from: 1, to: 2, kind: 'continue' as const },
    { id: 2, from: 2, to: 3, kind: 'unconditional' as const },
    { id: 3, from: 2, to: 4, kind: 'unconditional' as const, inputExit: true },
  ],
};

describe('an input block', () => {
  it('stores a valid answer and routes on; a wrong one is asked again with a text that says what is expected', async () => {
    const bot = await h.bot(emailBot);
    expect(await bot.say('hello')).toEqual(['Hi', 'Your e-mail?']);
    expect(await bot.say('ann at example')).toEqual([
      'That does not look like an e-mail address. Please write it like ann@example.com.',
    ]);
    expect((await bot.clientRow()).currentBlockId).toBe(2);
    expect((await bot.variables()).client).toMatchObject({ email_attempts: '1' });
    expect(await bot.say(' ann@example.com ')).toEqual(['Thanks, we write to ann@example.com']);
    const { client } = await bot.variables();
    expect(client.email).toBe('ann@example.com');
    expect(client.email_attempts).toBeUndefined();
    expect((await bot.log('input_invalid')).map((e) => e.attempts)).toEqual([1]);
  });

  it('follows its exit arrow at the last wrong answer; a start trigger still leaves it at any time', async () => {
    const bot = await h.bot(emailBot);
    await bot.say('hello');
    expect(await bot.say('no')).toHaveLength(1);
    expect(await bot.say('still no')).toHaveLength(1);
    expect(await bot.say('never')).toEqual(['Let us talk by phone instead']);
    expect((await bot.clientRow()).currentBlockId).toBe(4);
    expect((await bot.variables()).client.email_attempts).toBeUndefined();
    expect((await bot.log('block')).at(-1)).toMatchObject({ blockId: 4, via: 'input_exit', arrowId: 3 });

    const again = await h.bot(emailBot);
    await again.say('hello');
    expect(await again.say('menu')).toEqual(['Menu']);
    expect((await again.variables()).client.email).toBeUndefined();
  });

  it('re-asks with its own text and buttons, takes a choice by its number, and asks for ever without an exit arrow', async () => {
    const bot = await h.bot({
      blocks: [
        {
          id: 1,
          kind: 'start',
          text: 'Which size?',
          trigger: { alternatives: '' },
          buttons: [{ text: 'Small' }, { text: 'Large' }],
          input: {
            type: 'choice',
            variable: 'size',
            choices: 'Small;Large',
            retryText: 'Small or large?',
            attempts: 1,
          },
        },
        { id: 2, kind: 'state', text: 'Size #{size}, noted' },
      ],
      arrows: [{ id: 1, from: 1, to: 2, kind: 'unconditional' }],
    });
    await bot.say('hi');
    for (let i = 0; i < 3; i++) {
      const result = await bot.event({ type: 'message', text: 'medium' });
      expect(result.messages.map((m) => [m.text, m.buttons])).toEqual([
        [
          'Small or large?',
          [expect.objectContaining({ text: 'Small' }), expect.objectContaining({ text: 'Large' })],
        ],
      ]);
    }
    expect(await bot.say('2')).toEqual(['Size Large, noted']);
  });

  it('leaves callbacks and API messages to the arrows: only what the client wrote is checked', async () => {
    const bot = await h.bot(emailBot);
    await bot.say('hello');
    const callback = await bot.event({ type: 'message', text: 'paid', messageFromOutside: 3 });
    expect(callback.messages.map((m) => m.text)).toEqual(['Thanks, we write to ']);
  });
});
