import { describe, expect, it } from 'vitest';
import { webhookAddressProblem } from './channel-service';

describe('whether the tg messenger can call this server’s webhooks (issue 30)', () => {
  it('can at a public https address on its ports', () => {
    for (const base of [
      'https://bots.example.com',
      'https://bots.example.com:8443/',
      'https://203.0.114.7:88',
    ])
      expect(webhookAddressProblem(base), base).toBeNull();
  });

  it('cannot at the default localhost, a private or local address, plain http or another port, and says to poll', () => {
    for (const base of [
      'http://localhost:3000',
      'https://localhost',
      'https://127.0.0.1',
      'https://[::1]',
      'https://192.168.1.20',
      'https://10.0.0.5:443',
      'https://bots.internal',
      'https://myserver',
      'http://bots.example.com',
      'https://bots.example.com:3000',
    ]) {
      const problem = webhookAddressProblem(base);
      expect(problem, base).toContain('Choose long polling');
      expect(problem, base).toContain(new URL(base).origin);
    }
  });
});
