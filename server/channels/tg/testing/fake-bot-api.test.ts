import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBot, type FakeBotApi, startFakeBotApi } from './fake-bot-api';

let clock = 1_000_000;
let fake: FakeBotApi;
let bot: FakeBot;

beforeAll(async () => {
  fake = await startFakeBotApi({ now: () => clock });
  bot = fake.addBot({ username: 'shop_bot' });
});
afterAll(() => fake.close());

async function post(method: string, body: unknown, token = bot.token) {
  const res = await fetch(`${fake.url}/bot${token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('the fake Bot API speaks the protocol', () => {
  it('answers JSON, form and query parameters, GET and POST alike', async () => {
    expect(await post('getMe', {})).toMatchObject({
      status: 200,
      body: { ok: true, result: { username: 'shop_bot' } },
    });
    const form = await fetch(`${fake.url}/bot${bot.token}/setMyCommands`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        commands: JSON.stringify([{ command: 'start', description: 'Go' }]),
        scope: JSON.stringify({ type: 'all_private_chats' }),
        language_code: 'en',
      }).toString(),
    });
    expect(await form.json()).toEqual({ ok: true, result: true });
    const query = new URLSearchParams({ scope: '{"type":"all_private_chats"}', language_code: 'en' });
    const got = await fetch(`${fake.url}/bot${bot.token}/getMyCommands?${query}`);
    expect(await got.json()).toEqual({ ok: true, result: [{ command: 'start', description: 'Go' }] });
  });

  it('takes one answerCallbackQuery per pressed button, within 15 s of the press', async () => {
    const presses = fake.addBot();
    const press = (id: string) =>
      fake.pushUpdate(presses.token, { callback_query: { id, from: { id: 1, first_name: 'A' }, data: 'x' } });
    const answer = (id: string) => post('answerCallbackQuery', { callback_query_id: id }, presses.token);
    const tooOld = 'Bad Request: query is too old and response timeout expired or query ID is invalid';
    await press('cq-once');
    expect(await answer('cq-once')).toMatchObject({
      status: 200,
    });
    expect(await answer('cq-once')).toMatchObject({
      status: 400,
      body: { description: tooOld },
    });
    await press('cq-late');
    clock += 15_001;
    expect(await answer('cq-late')).toMatchObject({
      status: 400,
      body: { description: tooOld },
    });
    await press('cq-in-time');
    clock += 15_000;
    expect(await answer('cq-in-time')).toMatchObject({
      status: 200,
    });
  });

  it('gives files by getFile and the download path, and profile photos', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const fileId = fake.addFile(bot.token, bytes, { path: 'documents/a.pdf' });
    expect(await post('getFile', { file_id: fileId })).toMatchObject({
      status: 200,
      body: { ok: true, result: { file_id: fileId, file_size: 3, file_path: 'documents/a.pdf' } },
    });
    expect(await post('getFile', { file_id: 'nope' })).toMatchObject({
      status: 400,
      body: { description: 'Bad Request: invalid file_id' },
    });
    const file = await fetch(`${fake.url}/file/bot${bot.token}/documents/a.pdf`);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
    expect((await fetch(`${fake.url}/file/bot1:nope/documents/a.pdf`)).status).toBe(404);
    const small = fake.setProfilePhoto(bot.token, 77, bytes);
    expect(await post('getUserProfilePhotos', { user_id: 77, limit: 1 })).toMatchObject({
      body: {
        ok: true,
        result: { total_count: 1, photos: [[{ file_id: small, width: 160 }, { width: 640 }]] },
      },
    });
    expect(await post('getUserProfilePhotos', { user_id: 78 })).toMatchObject({
      body: { ok: true, result: { total_count: 0, photos: [] } },
    });
  });

  it('answers 401 for an unknown token, 404 for an unknown method or path', async () => {
    expect(await post('getMe', {}, '1:nope')).toEqual({
      status: 401,
      body: { ok: false, error_code: 401, description: 'Unauthorized' },
    });
    expect((await post('noSuchMethod', {})).body).toEqual({
      ok: false,
      error_code: 404,
      description: 'Not Found',
    });
    expect((await fetch(`${fake.url}/other`)).status).toBe(404);
  });

  it('checks texts, keyboards and media the way the messenger does', async () => {
    const send = (params: Record<string, unknown>, method = 'sendMessage') => {
      clock += 2_000;
      return post(method, { chat_id: 9, ...params });
    };
    expect((await send({ text: 'x'.repeat(4096) })).status).toBe(200);
    expect((await send({ text: 'x'.repeat(4097) })).body.description).toBe(
      'Bad Request: message is too long',
    );
    expect((await send({ text: `<b>${'x'.repeat(4096)}</b>`, parse_mode: 'HTML' })).status).toBe(200);
    expect((await send({ text: ' \n ' })).body.description).toBe('Bad Request: message text is empty');
    const inline = (button: Record<string, unknown>) =>
      send({ text: 'k', reply_markup: { inline_keyboard: [[button]] } });
    expect((await inline({ text: 'a', callback_data: 'x'.repeat(64) })).status).toBe(200);
    expect((await inline({ text: 'a', callback_data: 'я'.repeat(33) })).body.description).toBe(
      'Bad Request: BUTTON_DATA_INVALID',
    );
    expect((await inline({ text: 'a' })).body.description).toMatch(/Text buttons are unallowed/);
    expect((await inline({ text: 'a', url: 'not a url' })).body.description).toBe(
      'Bad Request: BUTTON_URL_INVALID',
    );
    expect((await send({ text: 'k', reply_markup: { keyboard: [['Yes', { text: 'No' }]] } })).status).toBe(
      200,
    );
    expect((await send({ text: 'k', reply_markup: { keyboard: [{ text: 'No' }] } })).status).toBe(400);
    expect(
      (await send({ photo: 'https://cdn.example/p.jpg', caption: 'x'.repeat(1024) }, 'sendPhoto')).status,
    ).toBe(200);
    expect(
      (await send({ photo: 'https://cdn.example/p.jpg', caption: 'x'.repeat(1025) }, 'sendPhoto')).body
        .description,
    ).toBe('Bad Request: message caption is too long');
    expect((await send({ document: 'C:\\file.pdf' }, 'sendDocument')).status).toBe(400);
    fake.blockChat(bot.token, 10);
    expect((await post('sendMessage', { chat_id: 10, text: 'hi' })).body).toEqual({
      ok: false,
      error_code: 403,
      description: 'Forbidden: bot was blocked by the user',
    });
  });

  it('answers 429 with retry_after over 30 sends a second per bot, one per private chat, 20 a minute per group', async () => {
    clock += 120_000;
    for (let chat = 1; chat <= 30; chat++)
      expect((await post('sendMessage', { chat_id: 100 + chat, text: 'x' })).status).toBe(200);
    expect(await post('sendMessage', { chat_id: 200, text: 'x' })).toEqual({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 1',
        parameters: { retry_after: 1 },
      },
    });
    clock += 1_000;
    expect((await post('sendMessage', { chat_id: 101, text: 'again' })).status).toBe(200);
    expect((await post('sendMessage', { chat_id: 101, text: 'too soon' })).status).toBe(429);
    for (let i = 0; i < 20; i++) {
      clock += 100;
      expect((await post('sendMessage', { chat_id: -300, text: `${i}` })).status).toBe(200);
    }
    clock += 1_000;
    const over = await post('sendMessage', { chat_id: -300, text: 'over' });
    expect(over.body.parameters).toEqual({ retry_after: 58 });
  });

  it('validates the webhook secret, delivers updates with it, and refuses getUpdates meanwhile', async () => {
    const received: { secret?: string; body: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ secret: req.headers['x-telegram-bot-api-secret-token'] as string | undefined, body });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      expect((await post('setWebhook', { url, secret_token: 'has space' })).body.description).toBe(
        'Bad Request: secret token contains unallowed characters',
      );
      expect((await post('setWebhook', { url, secret_token: 'x'.repeat(257) })).status).toBe(400);
      expect(await post('setWebhook', { url, secret_token: 'Secret_-1' })).toEqual({
        status: 200,
        body: { ok: true, result: true, description: 'Webhook was set' },
      });
      expect((await post('getWebhookInfo', {})).body.result).toMatchObject({ url, pending_update_count: 0 });
      const sent = await fake.pushUpdate(bot.token, {
        message: { message_id: 1, date: 1, chat: { id: 5, type: 'private' }, text: 'hi' },
      });
      expect(sent).toMatchObject({ via: 'webhook', status: 200 });
      expect(received).toHaveLength(1);
      expect(received[0].secret).toBe('Secret_-1');
      expect(JSON.parse(received[0].body)).toMatchObject({
        update_id: sent.update_id,
        message: { text: 'hi' },
      });
      expect((await post('getUpdates', {})).body).toMatchObject({ ok: false, error_code: 409 });
      expect((await post('deleteWebhook', {})).body).toEqual({
        ok: true,
        result: true,
        description: 'Webhook was deleted',
      });
    } finally {
      receiver.close();
    }
  });

  it('queues updates for getUpdates, confirmed by offset; a second poll ends the first with 409', async () => {
    const first = await fake.pushUpdate(bot.token, {
      message: { message_id: 2, date: 1, chat: { id: 5, type: 'private' }, text: 'a' },
    });
    const second = await fake.pushUpdate(bot.token, {
      message: { message_id: 3, date: 1, chat: { id: 5, type: 'private' }, text: 'b' },
    });
    const all = await post('getUpdates', { limit: 1 });
    expect(all.body.result.map((u: { update_id: number }) => u.update_id)).toEqual([first.update_id]);
    const next = await post('getUpdates', { offset: first.update_id + 1 });
    expect(next.body.result.map((u: { update_id: number }) => u.update_id)).toEqual([second.update_id]);
    expect((await post('getUpdates', { offset: second.update_id + 1 })).body.result).toEqual([]);

    const waiting = post('getUpdates', { offset: second.update_id + 1, timeout: 30 });
    await fake.waitForPoll(bot.token);
    const replacing = post('getUpdates', { offset: second.update_id + 1, timeout: 30 });
    expect((await waiting).body).toMatchObject({
      ok: false,
      error_code: 409,
      description: expect.stringContaining('terminated by other getUpdates'),
    });
    await fake.waitForPoll(bot.token);
    const third = await fake.pushUpdate(bot.token, {
      message: { message_id: 4, date: 1, chat: { id: 5, type: 'private' }, text: 'c' },
    });
    expect((await replacing).body.result.map((u: { update_id: number }) => u.update_id)).toEqual([
      third.update_id,
    ]);
    expect(fake.callsOf('getUpdates', bot.token).length).toBeGreaterThanOrEqual(5);
  });

  it('stores descriptions with their limits and validates command lists', async () => {
    expect((await post('setMyDescription', { description: 'x'.repeat(512) })).status).toBe(200);
    expect((await post('setMyDescription', { description: 'x'.repeat(513) })).status).toBe(400);
    expect((await post('setMyShortDescription', { short_description: 'x'.repeat(121) })).status).toBe(400);
    expect((await post('getMyShortDescription', { language_code: 'english' })).body.description).toBe(
      'Bad Request: invalid language code specified',
    );
    const many = Array.from({ length: 101 }, (_, i) => ({ command: `c${i}`, description: 'd' }));
    expect((await post('setMyCommands', { commands: many })).body.description).toBe(
      'Bad Request: BOT_COMMANDS_TOO_MUCH',
    );
    expect(
      (await post('setMyCommands', { commands: [{ command: 'Bad', description: 'd' }] })).body.description,
    ).toBe('Bad Request: BOT_COMMAND_INVALID');
    expect((await post('getMyCommands', { scope: { type: 'chat' } })).status).toBe(400);
    expect((await post('getMyCommands', { scope: { type: 'chat_member', chat_id: 1 } })).status).toBe(400);
  });
});
