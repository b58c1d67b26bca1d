import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES, clientDisplayName, messengerLabel } from './client-display';

describe("a client's display name", () => {
  it('is the name the client has', () => {
    expect(clientDisplayName({ id: 6, name: ' Anna ', clientType: CLIENT_TYPES.widget })).toBe('Anna');
  });

  it("is the messenger's word for a client and the id when there is no name", () => {
    expect(clientDisplayName({ id: 6, name: '', clientType: CLIENT_TYPES.widget })).toBe('Website visitor 6');
    expect(clientDisplayName({ id: 7, name: '  ', clientType: CLIENT_TYPES.tg })).toBe('Telegram user 7');
    expect(clientDisplayName({ id: 8, name: '', clientType: 42 })).toBe('Client 8');
  });

  it('names the messengers', () => {
    expect(messengerLabel(CLIENT_TYPES.widget)).toBe('Web widget');
    expect(messengerLabel(42)).toBe('Type 42');
  });
});
