import { describe, expect, it } from 'vitest';
import { adaptedParameters, chatParameters, refusedParameter } from './chat-parameters';

const auto = { tokenParameter: 'auto', temperature: 'auto' } as const;

describe('chatParameters', () => {
  it('guesses by the model’s name until a refusal teaches better', () => {
    expect(chatParameters(auto, 'gpt-4o-mini', null)).toMatchObject({
      tokenParameter: 'max_tokens',
      temperature: true,
    });
    for (const model of ['o1', 'o3-mini', 'o4-mini-2025-04-16', 'gpt-5', 'gpt-5-mini', 'openai/o3'])
      expect(chatParameters(auto, model, null)).toMatchObject({
        tokenParameter: 'max_completion_tokens',
        temperature: false,
      });
    expect(
      chatParameters(auto, 'prod-chat', {
        tokenParameter: 'max_completion_tokens',
        temperature: false,
        system: true,
      }),
    ).toEqual({
      tokenParameter: 'max_completion_tokens',
      temperature: false,
      system: true,
      adapt: { tokenParameter: true, temperature: true, system: true },
    });
  });

  it('follows the settings where they are not automatic, over the name and what was learnt', () => {
    expect(
      chatParameters({ tokenParameter: 'max_tokens', temperature: 'send' }, 'o3-mini', {
        tokenParameter: 'max_completion_tokens',
        temperature: false,
        system: true,
      }),
    ).toEqual({
      tokenParameter: 'max_tokens',
      temperature: true,
      system: true,
      adapt: { tokenParameter: false, temperature: false, system: true },
    });
    expect(chatParameters({ tokenParameter: 'auto', temperature: 'omit' }, 'llama3.1', null)).toMatchObject({
      tokenParameter: 'max_tokens',
      temperature: false,
      adapt: { tokenParameter: true, temperature: false },
    });
  });
});

describe('refusedParameter', () => {
  it('reads the param named, else the words of OpenAI and of Azure', () => {
    expect(refusedParameter({ param: 'max_tokens', message: '' })).toBe('max_tokens');
    expect(refusedParameter({ param: 'temperature', message: '' })).toBe('temperature');
    expect(
      refusedParameter({
        message:
          "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      }),
    ).toBe('max_tokens');
    expect(
      refusedParameter({
        message: "Unsupported value: 'temperature' does not support 0.7 with this model.",
      }),
    ).toBe('temperature');
    expect(
      refusedParameter({ message: 'Unrecognized request argument supplied: max_completion_tokens' }),
    ).toBe('max_completion_tokens');
    expect(refusedParameter({ message: 'System role not supported' })).toBe('system');
    expect(refusedParameter({ param: 'messages', message: "Invalid 'messages': empty array." })).toBeNull();
  });
});

describe('adaptedParameters', () => {
  const sent = chatParameters(auto, 'prod-chat', null);

  it('changes each refused parameter once, where automatic', () => {
    const once = adaptedParameters(sent, 'max_tokens');
    expect(once).toMatchObject({ tokenParameter: 'max_completion_tokens', adapt: { tokenParameter: false } });
    // Refused again the other way: no going back and forth.
    expect(adaptedParameters(once as typeof sent, 'max_completion_tokens')).toEqual({
      setting: expect.stringContaining('set Token parameter'),
    });
    expect(adaptedParameters(sent, 'temperature')).toMatchObject({ temperature: false });
  });

  it('leaves a refusal of what was not sent as it is', () => {
    expect(adaptedParameters(sent, 'max_completion_tokens')).toBeNull();
    expect(adaptedParameters({ ...sent, temperature: false }, 'temperature')).toBeNull();
  });
});
