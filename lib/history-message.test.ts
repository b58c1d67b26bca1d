import { describe, expect, it } from 'vitest';
import { isSystemMessage, MESSAGE_FROM, messageSource } from './history-message';

describe('where a history message came from', () => {
  it('tells the client and the bot apart from the API, the CRM, callbacks and telephony', () => {
    const of = (direction: 'in' | 'out', messageFromOutside: number) =>
      messageSource({ direction, messageFromOutside });
    expect(of('in', MESSAGE_FROM.client)).toBe('client');
    expect(of('out', MESSAGE_FROM.client)).toBe('bot');
    expect(of('out', MESSAGE_FROM.api)).toBe('api');
    expect(of('out', MESSAGE_FROM.crm)).toBe('crm');
    expect(of('in', MESSAGE_FROM.callback)).toBe('callback');
    expect(of('in', MESSAGE_FROM.telephony)).toBe('telephony');
    expect(of('in', 4)).toBe('other');
  });

  it('calls an incoming message from outside a system message, and nothing outgoing', () => {
    expect(isSystemMessage({ direction: 'in', messageFromOutside: MESSAGE_FROM.api })).toBe(true);
    expect(isSystemMessage({ direction: 'in', messageFromOutside: MESSAGE_FROM.client })).toBe(false);
    expect(isSystemMessage({ direction: 'out', messageFromOutside: MESSAGE_FROM.api })).toBe(false);
  });
});
