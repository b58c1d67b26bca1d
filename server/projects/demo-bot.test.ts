import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorClientRef } from '@/server/channels/simulator/simulator-service';
import { handleEvent } from '@/server/engine/handle-event';
import { EngineHarness } from '@/server/engine/testing/engine-harness';
import { demoBotSchema } from './demo-bot';

let h: EngineHarness;
beforeAll(async () => {
  h = await EngineHarness.create();
});
afterAll(() => h?.close());

describe('the demo bot', () => {
  it('greets a client by name, and one without a name with "Hi!" (not "Hi !")', async () => {
    const bot = await h.bot(demoBotSchema);
    expect(await bot.say('hello')).toEqual([
      'Hi Tester tester! I am the Blockbot demo. What would you like to do?',
    ]);
    const nameless = await handleEvent(
      h.deps,
      bot.projectId,
      { ref: simulatorClientRef('nameless', '') },
      {
        type: 'message',
        text: 'hello',
      },
    );
    expect(nameless.messages.map((m) => m.text)).toEqual([
      'Hi! I am the Blockbot demo. What would you like to do?',
    ]);
  });

  it('starts over on /start with the welcome at once (a continue arrow)', async () => {
    const bot = await h.bot(demoBotSchema);
    await bot.say('hello');
    expect(await bot.say('/start')).toEqual([
      'Starting over.',
      'Hi Tester tester! I am the Blockbot demo. What would you like to do?',
    ]);
    expect((await bot.clientRow()).currentBlockId).toBe(1);
  });
});
