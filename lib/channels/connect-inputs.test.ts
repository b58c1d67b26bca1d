import { describe, expect, it } from 'vitest';
import {
  connectCloudInput,
  connectFields,
  connectGatewayInput,
  connectTelephonyInput,
  connectTgInput,
  telephonyVoiceInput,
} from './connect-inputs';

describe('connect forms from their schemas', () => {
  it('lists every field in order with its label, hint, kind and starting value', () => {
    expect(connectFields(connectTgInput).map((f) => [f.key, f.meta.label, f.initial])).toEqual([
      ['token', 'Bot token', ''],
      ['mode', 'Receive messages by', 'webhook'],
    ]);
    expect(connectFields(connectGatewayInput).map((f) => [f.key, f.initial, Boolean(f.meta.secret)])).toEqual(
      [
        ['url', '', false],
        ['apiKey', '', true],
        ['session', 'default', false],
      ],
    );
    const cloud = connectFields(connectCloudInput);
    expect(cloud.map((f) => f.key)).toEqual([
      'phoneNumberId',
      'businessAccountId',
      'accessToken',
      'appSecret',
    ]);
    expect(cloud.every((f) => f.meta.hint)).toBe(true);
  });

  it('marks the fields the schema takes left out as optional: the form is sent without them', () => {
    const optional = connectFields(connectTelephonyInput)
      .filter((f) => f.optional)
      .map((f) => [f.key, f.initial]);
    expect(optional).toEqual([
      ['voiceVendor', 'google'],
      ['language', 'en-US'],
      ['voice', ''],
      ['transferNumber', ''],
      ['transcribeTransfers', 'false'],
      ['keepRecordings', 'false'],
    ]);
    expect(connectFields(connectCloudInput).some((f) => f.optional)).toBe(false);
  });

  it('gives a telephony channel’s voice settings form the connect form’s fields, labels and rules', () => {
    expect(connectFields(telephonyVoiceInput).map((f) => [f.key, f.meta.label, f.initial])).toEqual([
      ['voiceVendor', 'Speech vendor', 'google'],
      ['language', 'Language', 'en-US'],
      ['voice', 'Voice', ''],
      ['transferNumber', 'Transfer number', ''],
      ['transcribeTransfers', 'Transcribe transfers', 'false'],
      ['keepRecordings', 'Keep recordings', 'false'],
    ]);
    expect(connectFields(telephonyVoiceInput).filter((f) => f.meta.checkbox).length).toBe(2);
    // The form's checkbox sends 'true' or 'false' as text; the API may send booleans.
    expect(telephonyVoiceInput.parse({ transcribeTransfers: 'true', keepRecordings: false })).toMatchObject({
      transcribeTransfers: true,
      keepRecordings: false,
    });
    expect(telephonyVoiceInput.safeParse({ keepRecordings: 'yes' }).error?.issues).toMatchObject([
      { path: ['keepRecordings'], message: 'must be true or false' },
    ]);
    const parsed = telephonyVoiceInput.safeParse({ language: 'English', transferNumber: 'the boss' });
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['language', 'must be a language code like en-US'],
      ['transferNumber', 'must be a phone number, like +1 415 555 2671'],
    ]);
  });

  it('names the field and how to fix it when a value is wrong', () => {
    const parsed = connectGatewayInput.safeParse({ url: 'waha:3000', apiKey: 'k' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['url'],
      message: expect.stringContaining('http://waha:3000'),
    });
    expect(connectGatewayInput.parse({ url: 'http://waha:3000', apiKey: 'k' }).session).toBe('default');
  });
});
