import { describe, expect, it } from 'vitest';
import { isSystemMessage, MESSAGE_FROM, messageSender, messageSource } from './history-message';

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

describe("a message's sender label", () => {
  const label = (direction: 'in' | 'out', messageFromOutside: number, operator: string | null = null) =>
    messageSender({ direction, messageFromOutside, operator }, 'Website visitor 6');

  it('names the client by their display name, the bot as Bot and an operator by name', () => {
    expect(label('in', MESSAGE_FROM.client)).toMatchObject({ kind: 'client', label: 'Website visitor 6' });
    expect(label('out', MESSAGE_FROM.client)).toMatchObject({ kind: 'bot', label: 'Bot' });
    expect(label('out', MESSAGE_FROM.crm, 'Ann')).toMatchObject({ kind: 'operator', label: 'Ann' });
  });

  it('names what has no member by its source; an incoming one from outside is a system message', () => {
    expect(label('out', MESSAGE_FROM.crm)).toMatchObject({ kind: 'source', label: 'CRM', system: false });
    expect(label('out', MESSAGE_FROM.api)).toMatchObject({ label: 'API' });
    expect(label('in', MESSAGE_FROM.callback)).toMatchObject({ label: 'Callback', system: true });
  });
});
