import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '@/server/config/env';
import { webhookAddressProblems } from './webhook-problems';

/** Each kind words why its messenger cannot call this server (the Channels tab shows it on its section). */
const saved = process.env.BLOCKBOT_BASE_URL;
const at = (base: string) => {
  process.env.BLOCKBOT_BASE_URL = base;
  resetEnvCache();
  return webhookAddressProblems();
};

afterEach(() => {
  if (saved === undefined) delete process.env.BLOCKBOT_BASE_URL;
  else process.env.BLOCKBOT_BASE_URL = saved;
  resetEnvCache();
});

describe('why a messenger cannot call this server’s webhooks, by kind', () => {
  it('at a local address every webhook kind says so in its own words, naming the address', () => {
    const problems = at('http://127.0.0.1:3000');
    expect(problems.tg).toMatch(/127\.0\.0\.1:3000.*tg messenger.*Choose long polling/);
    expect(problems.viber).toMatch(/127\.0\.0\.1:3000.*Viber calls webhooks only at public https/);
    expect(problems.viber).not.toContain('tg messenger');
  });

  it('each kind’s own rule: tg takes only its ports, Viber any public https address', () => {
    expect(at('https://bots.example.com:3443')).toMatchObject({
      tg: expect.stringContaining('8443'),
      viber: null,
    });
    expect(at('https://bots.example.com')).toMatchObject({ tg: null, viber: null });
  });
});
