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

  it('answers text it does not understand with the options again, and the client stays where it was', async () => {
    const bot = await h.bot(demoBotSchema);
    await bot.say('hello');
    const sorry = "Sorry, I didn't understand. Please choose one of the options below.";
    const unclear = await bot.event({ type: 'message', text: 'what is this?' });
    expect(unclear.messages).toMatchObject([{ text: sorry, buttons: [{ text: 'Prices' }] }]);
    expect((await bot.clientRow()).currentBlockId).toBe(1);
    // The same arrows are checked next: the button works, and so does the next step's answer.
    expect(await bot.say('Prices')).toEqual([
      'The plan costs 120 a month, tax included. Shall I place an order?',
    ]);
    const unsure = await bot.event({ type: 'message', text: 'hmm, maybe later' });
    expect(unsure.messages).toMatchObject([{ text: sorry, buttons: [{ text: 'Yes' }] }]);
    expect((await bot.clientRow()).currentBlockId).toBe(2);
    expect(await bot.say('yes')).toEqual(['Great! Which e-mail should we send the invoice to?']);
    expect((await bot.clientRow()).currentBlockId).toBe(3);
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
