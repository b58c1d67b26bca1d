import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeViber, startFakeViber } from './fake-viber';

/** The fake answers as the reference says Viber does (its header names the sources). */

let fake: FakeViber;
beforeAll(async () => {
  fake = await startFakeViber();
});
afterAll(() => fake.close());

const call = async (method: string, body: object, token?: string) => {
  const res = await fetch(`${fake.apiUrl}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-viber-auth-token': token } : {}) },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return {
    text: await res.clone().text(),
    json: (await res.json()) as { status: number; status_message: string },
  };
};

it('answers HTTP 200 with Viber’s status: a missing or unknown token, receivers, subscriptions and limits', async () => {
  const bot = fake.addBot();
  const sender = { name: 'Shop' };
  expect((await call('get_account_info', {})).json).toMatchObject({
    status: 2,
    status_message: 'missing_auth_token',
  });
  expect((await call('get_account_info', {}, 'nope')).json).toMatchObject({
    status: 2,
    status_message: 'invalidAuthToken',
  });
  expect(
    (await call('send_message', { receiver: 'nobody', type: 'text', text: 'hi', sender }, bot.token)).json
      .status,
  ).toBe(5);
  const user = fake.addUser();
  const send = (body: object) => call('send_message', { receiver: user.id, sender, ...body }, bot.token);
  expect((await send({ type: 'text', text: 'hi' })).json).toMatchObject({
    status: 6,
    status_message: 'receiverNotSubscribed',
  });
  // Writing subscribes (no webhook here: the callback itself is not sent).
  await fake.userWrites(bot, user, { type: 'text', text: 'x' }).catch(() => undefined);
  expect(fake.subscribed(bot, user)).toBe(true);
  expect((await send({ type: 'text', text: 'x'.repeat(7001) })).json.status).toBe(3);
  expect(
    (await call('send_message', { receiver: user.id, type: 'text', text: 'hi' }, bot.token)).json.status,
  ).toBe(4);
  expect((await send({ type: 'text', text: 'hi', sender: { name: 'x'.repeat(29) } })).json.status).toBe(3);
  const button = { ActionType: 'reply', ActionBody: 'a', Text: 'a', Columns: 6, Rows: 1 };
  expect(
    (await send({ type: 'text', text: 'hi', keyboard: { Buttons: Array(25).fill(button) } })).json.status,
  ).toBe(3);
  expect(
    (await send({ type: 'text', text: 'hi', keyboard: { Buttons: [{ ...button, Columns: 7 }] } })).json
      .status,
  ).toBe(3);
  expect(
    (await send({ type: 'file', media: 'https://x.example/a.pdf', file_name: 'a.pdf' })).json.status,
  ).toBe(4);
  const ok = await send({ type: 'text', text: 'hi', keyboard: { Buttons: Array(24).fill(button) } });
  expect(ok.json.status).toBe(0);
  // The token as Viber writes it: a 64-bit integer in the JSON text.
  expect(ok.text).toMatch(/"message_token":\d{19}[,}]/);
});

it('is in trouble when told: status 12, a 503', async () => {
  const bot = fake.addBot();
  const user = fake.addUser();
  await fake.userWrites(bot, user, { type: 'text', text: 'x' }).catch(() => undefined);
  fake.trouble = { status: 12, times: 1 };
  const body = { receiver: user.id, sender: { name: 'Shop' }, type: 'text', text: 'hi' };
  expect((await call('send_message', body, bot.token)).json.status).toBe(12);
  fake.trouble = { http: 503, times: 1 };
  const res = await fetch(`${fake.apiUrl}/send_message`, {
    method: 'POST',
    headers: { 'x-viber-auth-token': bot.token },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(503);
  expect((await call('send_message', body, bot.token)).json.status).toBe(0);
});
