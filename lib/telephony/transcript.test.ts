import { describe, expect, it } from 'vitest';
import { finalUtterance, transcriptText } from './transcript';

describe('a transcriptionHook’s speech', () => {
  const speech = (over: object) => ({
    is_final: true,
    alternatives: [{ transcript: ' I would like a refund. ', confidence: 0.9 }],
    language_code: 'en-US',
    ...over,
  });

  it('is a final utterance of the caller (channel 1) or of the operator (channel 2)', () => {
    expect(finalUtterance(speech({ channel_tag: 1 }))).toEqual({
      speaker: 'caller',
      text: 'I would like a refund.',
    });
    expect(finalUtterance(speech({ channel_tag: 2 }))).toMatchObject({ speaker: 'operator' });
  });

  it('is nothing when interim, empty or not a speech object', () => {
    expect(finalUtterance(speech({ is_final: false }))).toBeNull();
    expect(finalUtterance(speech({ alternatives: [] }))).toBeNull();
    expect(finalUtterance({ is_final: 'yes' })).toBeNull();
    expect(finalUtterance(undefined)).toBeNull();
  });

  it('makes the call’s transcript, one line each', () => {
    expect(
      transcriptText([
        { speaker: 'caller', text: 'Hello?' },
        { speaker: 'operator', text: 'Hi, how can I help?' },
      ]),
    ).toBe('Caller: Hello?\nOperator: Hi, how can I help?');
  });
});
