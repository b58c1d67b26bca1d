import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '@/server/config/env';
import { botApiClient, tgApiRoot } from './bot-api';
import { type FakeBot, type FakeBotApi, startFakeBotApi } from './testing/fake-bot-api';

let fake: FakeBotApi;
let bot: FakeBot;

beforeAll(async () => {
  fake = await startFakeBotApi();
  bot = fake.addBot({ username: 'pizza_shop_bot' });
});
afterAll(() => fake.close());
afterEach(() => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  delete process.env.BLOCKBOT_TG_API_ROOT;
  resetEnvCache();
});
process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';

describe('the Bot API client', () => {
  it('calls the configured server over HTTP and returns the result', async () => {
    const client = botApiClient(bot.token, { apiRoot: fake.url });
    const me = await client.call((api) => api.getMe());
    expect(me).toMatchObject({ ok: true, result: { username: 'pizza_shop_bot', is_bot: true } });
    expect(fake.callsOf('getMe', bot.token)).toHaveLength(1);
  });

  it('takes the API root from BLOCKBOT_TG_API_ROOT (a trailing slash is fine)', async () => {
    expect(tgApiRoot()).toBe('https://api.telegram.org');
    process.env.BLOCKBOT_TG_API_ROOT = `${fake.url}/`;
    resetEnvCache();
    const before = fake.callsOf('getMe').length;
    const me = await botApiClient(bot.token).call((api) => api.getMe());
    expect(me.ok).toBe(true);
    expect(fake.callsOf('getMe')).toHaveLength(before + 1);
  });

  it('goes through server/http: a local server not allowed is refused before any request, token not shown', async () => {
    delete process.env.BLOCKBOT_HTTP_ALLOW_HOSTS;
    const before = fake.calls.length;
    const result = await botApiClient(bot.token, { apiRoot: fake.url }).call((api) => api.getMe());
    expect(result).toMatchObject({ ok: false, reason: 'unavailable' });
    if (result.ok) return;
    expect(result.description).toContain('BLOCKBOT_HTTP_ALLOW_HOSTS');
    expect(result.description).not.toContain(bot.token);
    expect(fake.calls.length).toBe(before);
  });

  it('never puts the token in an error text, even when the URL itself is refused', async () => {
    const result = await botApiClient(bot.token, { apiRoot: 'http://bad host' }).call((api) => api.getMe());
    expect(result).toMatchObject({ ok: false, reason: 'unavailable' });
    expect(JSON.stringify(result)).not.toContain(bot.token);
    expect(JSON.stringify(result)).toContain('<token>');
  });

  it('maps an unknown token to invalid_token', async () => {
    const token = '123:revoked-token';
    const result = await botApiClient(token, { apiRoot: fake.url }).call((api) => api.getMe());
    expect(result).toEqual({ ok: false, reason: 'invalid_token', description: 'Unauthorized' });
  });

  it('maps a blocked chat to blocked, a refused argument to bad_request with the description', async () => {
    const client = botApiClient(bot.token, { apiRoot: fake.url });
    fake.blockChat(bot.token, 501);
    expect(await client.call((api) => api.sendMessage(501, 'hi'))).toEqual({
      ok: false,
      reason: 'blocked',
      description: 'Forbidden: bot was blocked by the user',
    });
    expect(await client.call((api) => api.sendMessage(502, '   '))).toEqual({
      ok: false,
      reason: 'bad_request',
      code: 400,
      description: 'Bad Request: message text is empty',
    });
  });

  it('maps a 429 to retry_after with its seconds', async () => {
    const client = botApiClient(bot.token, { apiRoot: fake.url });
    expect((await client.call((api) => api.sendMessage(601, 'one'))).ok).toBe(true);
    const second = await client.call((api) => api.sendMessage(601, 'two'));
    expect(second).toEqual({
      ok: false,
      reason: 'retry_after',
      retryAfter: 1,
      description: 'Too Many Requests: retry after 1',
    });
  });

  it('long-polls getUpdates and gets a 409 while a webhook is set', async () => {
    const other = fake.addBot();
    const client = botApiClient(other.token, { apiRoot: fake.url });
    const polled = client.call((api) => api.getUpdates({ timeout: 20 }));
    await fake.waitForPoll(other.token);
    await fake.pushUpdate(other.token, {
      message: { message_id: 1, date: 1, chat: { id: 5, type: 'private' } },
    });
    const result = await polled;
    expect(result).toMatchObject({ ok: true, result: [{ update_id: 100000 }] });

    expect((await client.call((api) => api.setWebhook('https://example.com/hook'))).ok).toBe(true);
    expect(await client.call((api) => api.getUpdates())).toMatchObject({
      ok: false,
      reason: 'bad_request',
      code: 409,
    });
  });
});
