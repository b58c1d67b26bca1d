import { describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT, botSchemaSchema, buttonsSchema } from '@/lib/schema';
import { lintBot, messengersOf } from '@/lib/schema/lint';
import {
  answerText,
  deliveryOf,
  type GatherResult,
  heardIn,
  MAX_VOICE_OPTIONS,
  messageVerbs,
  spokenText,
  transferVerb,
  turnVerbs,
} from './verbs';

const voice = { vendor: 'google', language: 'en-GB', voice: 'en-GB-Standard-A' };
const hook = 'https://bot.example/api/channels/telephony/7/gather';
/** Buttons as stored (with their defaults). */
const options = (input: unknown) => buttonsSchema.parse(input);
const synthesizer = { vendor: 'google', language: 'en-GB', voice: 'en-GB-Standard-A' };

describe('a message as verbs', () => {
  it('says a text with the channel’s voice', () => {
    expect(messageVerbs({ text: ' Hello ', attachments: [], buttons: null }, voice, hook)).toEqual([
      { verb: 'say', text: 'Hello', synthesizer },
    ]);
    // Nothing to say: no verb (an attachment alone is not spoken).
    expect(
      messageVerbs(
        { text: '', attachments: [{ type: 'image', url: 'https://x/y.png' }], buttons: null },
        voice,
        hook,
      ),
    ).toEqual([]);
  });

  it('turns buttons into a gather of one digit or speech, announcing the hint and numbered options', () => {
    const buttons = options({ hint: 'Choose one:', buttons: [{ text: 'Pay' }, { text: 'Later', line: 0 }] });
    const [gather] = messageVerbs({ text: 'Your bill is 5 EUR.', attachments: [], buttons }, voice, hook);
    expect(gather).toEqual({
      verb: 'gather',
      actionHook: hook,
      input: ['digits', 'speech'],
      numDigits: 1,
      timeout: 8,
      say: { text: 'Your bill is 5 EUR.\nChoose one:\nPress 1 for Later.\nPress 2 for Pay.', synthesizer },
      recognizer: { vendor: 'google', language: 'en-GB' },
    });
  });

  it('announces at most 9 options and cuts a very long text', () => {
    const many = options(Array.from({ length: 12 }, (_, i) => ({ text: `Size ${i + 1}` })));
    const text = spokenText({ text: 'Sizes', buttons: many });
    expect(text).toContain('Press 9 for Size 9.');
    expect(text).not.toContain('Size 10');
    expect(MAX_VOICE_OPTIONS).toBe(9);
    expect(spokenText({ text: 'x'.repeat(5000), buttons: null })).toHaveLength(3000);
  });

  it('ends a turn with a gather for the answer, keeps a gather already there, or hangs up', () => {
    const say = { verb: 'say' as const, text: 'Hi' };
    expect(turnVerbs([say], 'hangup', hook, voice)).toEqual([say, { verb: 'hangup' }]);
    expect(turnVerbs([say], 'listen', hook, voice).at(-1)).toMatchObject({
      verb: 'gather',
      finishOnKey: '#',
      input: ['digits', 'speech'],
    });
    const gather = messageVerbs(
      { text: 'Q', attachments: [], buttons: options([{ text: 'A' }]) },
      voice,
      hook,
    );
    expect(turnVerbs(gather, 'listen', hook, voice)).toEqual(gather);
  });
});

describe("the caller's answer as the client's message", () => {
  const buttons = options([{ text: 'Order a pizza' }, { text: 'Opening hours' }]);
  const answer = (result: GatherResult, lastButtons: typeof buttons | null) => {
    const heard = heardIn(result);
    return heard && answerText(heard, lastButtons);
  };
  it('is the option of the digit pressed, or the digits themselves', () => {
    expect(answer({ reason: 'dtmfDetected', digits: '2' }, buttons)).toBe('Opening hours');
    expect(answer({ reason: 'dtmfDetected', digits: '7' }, buttons)).toBe('7');
    expect(answer({ reason: 'dtmfDetected', digits: '1234' }, null)).toBe('1234');
  });

  it('is the phrase recognised, a spoken number naming its option', () => {
    const said = (transcript: string) => ({
      reason: 'speechDetected',
      speech: { alternatives: [{ transcript }] },
    });
    expect(answer(said(' Opening hours '), buttons)).toBe('Opening hours');
    expect(answer(said('One.'), buttons)).toBe('Order a pizza');
    expect(answer(said('2'), buttons)).toBe('Opening hours');
    expect(answer(said('large please'), buttons)).toBe('large please');
  });

  it('is nothing on a timeout or an empty phrase', () => {
    expect(answer({ reason: 'timeout' }, buttons)).toBeNull();
    expect(answer({ reason: 'speechDetected', speech: { alternatives: [] } }, buttons)).toBeNull();
  });
});

it("maps an outbound call's outcome to its message's delivery status", () => {
  expect(deliveryOf('in-progress')).toEqual({ status: 'delivered' });
  expect(deliveryOf('completed')).toEqual({ status: 'delivered' });
  expect(deliveryOf('busy')).toEqual({ status: 'failed', error: 'the line was busy' });
  expect(deliveryOf('no-answer')).toMatchObject({ status: 'failed' });
  expect(deliveryOf('failed')).toMatchObject({ status: 'failed' });
  expect(deliveryOf('ringing')).toBeNull();
});

describe('lint for a project with telephony', () => {
  const lint = (blocks: object[]) =>
    lintBot(
      botSchemaSchema.parse({
        format: BOT_SCHEMA_FORMAT,
        blocks: [{ id: 1, kind: 'start' }, ...blocks],
        arrows: [],
      }),
      { messengers: messengersOf(['telephony']) },
    ).filter((p) => p.rule === 'messenger-cannot-show');

  it('warns of images and files a call cannot show, not of links', () => {
    const problems = lint([
      {
        id: 2,
        kind: 'state',
        text: 'Our menu',
        attachments: [
          { type: 'image', url: 'https://x/menu.png' },
          { type: 'link', url: 'https://x/menu' },
          { type: 'file', url: 'https://x/menu.pdf' },
        ],
      },
    ]);
    expect(problems).toMatchObject([
      { target: { type: 'block', id: 2 }, message: expect.stringContaining('image, document attachments') },
    ]);
    expect(lint([{ id: 2, kind: 'state', attachments: [{ type: 'link', url: 'https://x' }] }])).toEqual([]);
  });

  it('warns of more than 9 options, and takes 9', () => {
    const some = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `o${i}` }));
    expect(lint([{ id: 2, kind: 'state', buttons: some(10) }])[0].message).toContain(
      '10 buttons; telephony shows at most 9',
    );
    expect(lint([{ id: 2, kind: 'state', buttons: some(9) }])).toEqual([]);
  });
});

describe('a transfer', () => {
  const voice = { vendor: 'google', language: 'de-DE', voice: '' };
  const transfer = {
    number: '15559990000',
    callerId: '15550001000',
    actionHook: 'https://b.example/dial-end',
  };

  it('dials the number from the channel’s, transcribing both legs apart when asked', () => {
    expect(transferVerb(transfer, voice)).toEqual({
      verb: 'dial',
      target: [{ type: 'phone', number: '15559990000' }],
      callerId: '15550001000',
      actionHook: 'https://b.example/dial-end',
    });
    expect(
      transferVerb({ ...transfer, transcriptionHook: 'https://b.example/transcript' }, voice),
    ).toMatchObject({
      transcribe: {
        transcriptionHook: 'https://b.example/transcript',
        recognizer: { vendor: 'google', language: 'de-DE', separateRecognitionPerChannel: true },
      },
    });
  });
});
