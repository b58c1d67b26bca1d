import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotApiClient, botApiClient } from './bot-api';
import { callTgBotApiFunction, parseCommands } from './commands';
import { type FakeBot, type FakeBotApi, startFakeBotApi } from './testing/fake-bot-api';

let fake: FakeBotApi;
let bot: FakeBot;
let client: BotApiClient;

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  fake = await startFakeBotApi();
  bot = fake.addBot();
  client = botApiClient(bot.token, { apiRoot: fake.url });
});
afterAll(() => fake.close());

const call = (fn: Parameters<typeof callTgBotApiFunction>[1], ...args: unknown[]) =>
  callTgBotApiFunction(client, fn, args);
const pairs = [
  ['start', 'Start over'],
  ['help', 'Help'],
];
const asResult = [
  { command: 'start', description: 'Start over' },
  { command: 'help', description: 'Help' },
];

describe('tg_* command functions against the Bot API', () => {
  it('sets, gets and deletes the default commands (no arguments = scope default, every language)', async () => {
    expect(await call('tg_set_command', pairs)).toBe(true);
    expect(bot.commands.get('default|')).toEqual(asResult);
    expect(await call('tg_get_command')).toEqual({ ok: true, result: asResult });
    expect(await call('tg_delete_command')).toBe(true);
    expect(await call('tg_get_command')).toEqual({ ok: true, result: [] });
  });

  it('keeps each scope and language apart, reading platform_id and user_id only where needed', async () => {
    const cases: [unknown[], string][] = [
      [[null, 'all_private_chats', '555'], 'all_private_chats|'],
      [['en', 'all_group_chats'], 'all_group_chats|en'],
      [['DE', 'all_chat_administrators'], 'all_chat_administrators|de'],
      [[null, 'chat', '-100200'], 'chat:-100200|'],
      [['ru', 'chat_administrators', '-100200'], 'chat_administrators:-100200|ru'],
      [[null, 'chat_member', '-100200', '777'], 'chat_member:-100200:777|'],
    ];
    for (const [where, key] of cases) {
      const commands = [[`c${key.length}`, key]];
      expect(await call('tg_set_command', commands, ...where)).toBe(true);
      expect(bot.commands.get(key)).toEqual([{ command: `c${key.length}`, description: key }]);
      expect(await call('tg_get_command', ...where)).toEqual({
        ok: true,
        result: [{ command: `c${key.length}`, description: key }],
      });
    }
    expect(fake.callsOf('setMyCommands').at(-1)?.params.scope).toEqual({
      type: 'chat_member',
      chat_id: -100200,
      user_id: 777,
    });
    expect(await call('tg_delete_command', 'en', 'all_group_chats')).toBe(true);
    expect(bot.commands.has('all_group_chats|en')).toBe(false);
    expect(bot.commands.has('all_chat_administrators|de')).toBe(true);
  });

  it('accepts the textual forms of the list and what tg_get_command returned', () => {
    expect(parseCommands('start - Start over\n/help — Help\n')).toEqual(asResult);
    expect(parseCommands('[["start", "Start over"], ["help", "Help"]]')).toEqual(asResult);
    expect(parseCommands(asResult)).toEqual(asResult);
  });

  it('refuses bad arguments with an error that says how to fix them, before calling the Bot API', async () => {
    const before = fake.calls.length;
    const hundredOne = Array.from({ length: 101 }, (_, i) => [`c${i}`, 'x']);
    const refusals: [Parameters<typeof call>[0], unknown[], RegExp][] = [
      ['tg_set_command', [hundredOne], /at most 100 commands can be set; got 101/],
      ['tg_set_command', [[]], /list of \[command, description\] pairs/],
      ['tg_set_command', [[['Start', 'x']]], /command 1 'Start' must be 1-32 characters of a-z, 0-9 and _/],
      ['tg_set_command', [[['start', '']]], /description of command 'start' must be 1-256/],
      ['tg_set_command', [[['start']]], /command 1 must be a pair/],
      ['tg_set_command', ['start: go'], /should look like 'start - Start over'/],
      [
        'tg_set_command',
        [pairs, 'eng'],
        /language must be a two-letter code such as 'en'; got 'eng'|two-letter/,
      ],
      ['tg_set_command', [pairs, null, 'everyone'], /scope must be one of default, all_private_chats/],
      ['tg_get_command', [null, 'chat'], /scope 'chat' needs platform_id/],
      ['tg_get_command', [null, 'chat_member', '-1'], /scope 'chat_member' needs user_id/],
      ['tg_delete_command', [null, 'chat', 'abc'], /platform_id must be the whole-number id/],
      ['tg_set_bot_description', ['x'.repeat(513)], /at most 512 characters; it has 513/],
      ['tg_set_bot_short_description', ['x'.repeat(121)], /at most 120 characters; it has 121/],
      ['tg_set_bot_description', [null], /description is required/],
      ['tg_get_bot_description', ['english'], /language_code must be a two-letter code/],
      ['tg_callback_url_open', [null, 'https://t.me/x_bot?start=1'], /callback_query_id is required/],
      ['tg_callback_url_open', ['q1', 'not a link'], /url must be a link/],
    ];
    for (const [fn, args, message] of refusals) await expect(call(fn, ...args), fn).rejects.toThrow(message);
    expect(fake.calls.length).toBe(before);
  });
});

describe('tg_* description functions', () => {
  it('sets and reads descriptions per language, and an empty text removes one', async () => {
    expect(await call('tg_set_bot_description', 'We sell pizza', 'en')).toBe(true);
    expect(await call('tg_set_bot_description', 'Für alle')).toBe(true);
    expect(await call('tg_get_bot_description', 'en')).toBe('We sell pizza');
    expect(await call('tg_get_bot_description')).toBe('Für alle');
    expect(await call('tg_set_bot_description', '', 'en')).toBe(true);
    expect(await call('tg_get_bot_description', 'en')).toBe('');
    expect(await call('tg_set_bot_short_description', 'x'.repeat(120))).toBe(true);
    expect(await call('tg_get_bot_short_description')).toBe('x'.repeat(120));
    expect(await call('tg_get_bot_short_description', 'fr')).toBe('');
  });
});

describe('tg_callback_url_open', () => {
  it('answers the pressed button with the link; an unknown query is the messenger refusal', async () => {
    await fake.pushUpdate(bot.token, {
      callback_query: { id: 'cq-7', from: { id: 1, first_name: 'A' }, data: 'Yes' },
    });
    const url = 'https://t.me/fake1_bot?start=promo';
    expect(await call('tg_callback_url_open', 'cq-7', url)).toBe(true);
    expect(fake.callsOf('answerCallbackQuery').at(-1)?.params).toEqual({ callback_query_id: 'cq-7', url });
    await expect(call('tg_callback_url_open', 'cq-7', url)).rejects.toThrow(
      'the tg messenger refused answerCallbackQuery: Bad Request: query is too old and response timeout expired or query ID is invalid',
    );
  });

  it('says so when the bot token was revoked', async () => {
    const revoked = botApiClient('1:revoked', { apiRoot: fake.url });
    await expect(callTgBotApiFunction(revoked, 'tg_get_command', [])).rejects.toThrow(
      /token is no longer valid/,
    );
  });
});
