import type { BotCommand, BotCommandScope, LanguageCode } from 'grammy/types';
import type { BotApiClient, BotCallResult } from './bot-api';

/**
 * The tg_* in-flow functions that only talk to the Bot API: the bot's commands, descriptions,
 * and answering a button with a link. Arguments arrive as the formula gave them (optional
 * empty texts already None); each is checked with an error that says how to fix it.
 */

export const TG_BOT_API_FUNCTIONS = [
  'tg_set_command',
  'tg_get_command',
  'tg_delete_command',
  'tg_set_bot_description',
  'tg_set_bot_short_description',
  'tg_get_bot_description',
  'tg_get_bot_short_description',
  'tg_callback_url_open',
] as const;
export type TgBotApiFunction = (typeof TG_BOT_API_FUNCTIONS)[number];

export const MAX_COMMANDS = 100;
const SCOPES = [
  'default',
  'all_private_chats',
  'all_group_chats',
  'all_chat_administrators',
  'chat',
  'chat_administrators',
  'chat_member',
] as const;

const absent = (v: unknown) => v === undefined || v === null || v === '';

function text(v: unknown, name: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  throw new Error(`${name} must be a text`);
}

function language(v: unknown, name: string): LanguageCode | undefined {
  if (absent(v)) return undefined;
  const code = text(v, name).trim();
  if (!/^[a-zA-Z]{2}$/.test(code))
    throw new Error(
      `${name} must be a two-letter code such as 'en', or empty for every language; got '${code}'`,
    );
  return code.toLowerCase() as LanguageCode;
}

function whole(v: unknown, name: string, scope: string): number {
  if (absent(v)) throw new Error(`scope '${scope}' needs ${name}`);
  const s = text(v, name).trim();
  if (!/^-?\d{1,20}$/.test(s) || !Number.isSafeInteger(Number(s)))
    throw new Error(`${name} must be the whole-number id from the tg messenger; got '${s}'`);
  return Number(s);
}

/** scope, platform_id, user_id → a BotCommandScope; the ids are read only where the scope needs them. */
function commandScope(args: unknown[]): BotCommandScope {
  const type = absent(args[0]) ? 'default' : text(args[0], 'scope').trim();
  if (!(SCOPES as readonly string[]).includes(type))
    throw new Error(`scope must be one of ${SCOPES.join(', ')}; got '${type}'`);
  if (type === 'chat' || type === 'chat_administrators')
    return { type, chat_id: whole(args[1], 'platform_id', type) };
  if (type === 'chat_member')
    return { type, chat_id: whole(args[1], 'platform_id', type), user_id: whole(args[2], 'user_id', type) };
  return { type } as BotCommandScope;
}

/** A list of [command, description] (or {command, description}), or its text: JSON, or `command - description` lines. */
export function parseCommands(value: unknown): BotCommand[] {
  let list: unknown = value;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('[')) {
      try {
        list = JSON.parse(trimmed);
      } catch {
        throw new Error('commands is text that starts like a list but is not valid JSON');
      }
    } else {
      list = trimmed
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line) => {
          const m = /^(\S+)\s+[-–—]\s+(.+)$/.exec(line);
          if (!m)
            throw new Error(`commands line '${line.slice(0, 80)}' should look like 'start - Start over'`);
          return [m[1], m[2]];
        });
    }
  }
  if (!Array.isArray(list) || !list.length)
    throw new Error(
      "commands must be a list of [command, description] pairs, e.g. [['start', 'Start over']] (to remove commands use tg_delete_command)",
    );
  if (list.length > MAX_COMMANDS)
    throw new Error(`at most ${MAX_COMMANDS} commands can be set; got ${list.length}`);
  return list.map((item, i) => {
    const pair = Array.isArray(item)
      ? item
      : item && typeof item === 'object'
        ? [(item as Record<string, unknown>).command, (item as Record<string, unknown>).description]
        : [];
    if (pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string')
      throw new Error(`command ${i + 1} must be a pair [command, description] of texts`);
    const command = pair[0].trim().replace(/^\//, '');
    if (!/^[a-z0-9_]{1,32}$/.test(command))
      throw new Error(`command ${i + 1} '${command}' must be 1-32 characters of a-z, 0-9 and _ (lower case)`);
    const description = pair[1].trim();
    if (description.length < 1 || description.length > 256)
      throw new Error(
        `the description of command '${command}' must be 1-256 characters; it has ${description.length}`,
      );
    return { command, description };
  });
}

function description(v: unknown, max: number): string {
  if (v === undefined || v === null) throw new Error("description is required ('' removes it)");
  const d = text(v, 'description');
  if (d.length > max) throw new Error(`description must be at most ${max} characters; it has ${d.length}`);
  return d;
}

function unwrap<T>(result: BotCallResult<T>, method: string): T {
  if (result.ok) return result.result;
  switch (result.reason) {
    case 'retry_after':
      throw new Error(
        `the tg messenger asks to wait ${result.retryAfter} s before ${method} is called again`,
      );
    case 'invalid_token':
      throw new Error("the bot's token is no longer valid (revoked in BotFather?); connect the bot again");
    case 'unavailable':
      throw new Error(`the tg messenger could not be reached for ${method}: ${result.description}`);
    default:
      throw new Error(`the tg messenger refused ${method}: ${result.description}`);
  }
}

/** Runs one tg_* function against the bot; returns what the interface says it returns. */
export async function callTgBotApiFunction(
  bot: BotApiClient,
  fn: TgBotApiFunction,
  args: unknown[],
): Promise<unknown> {
  switch (fn) {
    case 'tg_set_command': {
      const commands = parseCommands(args[0]);
      const language_code = language(args[1], 'language');
      const scope = commandScope(args.slice(2));
      return unwrap(
        await bot.call((api) => api.setMyCommands(commands, { scope, language_code })),
        'setMyCommands',
      );
    }
    case 'tg_get_command': {
      const language_code = language(args[0], 'language');
      const scope = commandScope(args.slice(1));
      const result = unwrap(
        await bot.call((api) => api.getMyCommands({ scope, language_code })),
        'getMyCommands',
      );
      return { ok: true, result: result.map((c) => ({ command: c.command, description: c.description })) };
    }
    case 'tg_delete_command': {
      const language_code = language(args[0], 'language');
      const scope = commandScope(args.slice(1));
      return unwrap(
        await bot.call((api) => api.deleteMyCommands({ scope, language_code })),
        'deleteMyCommands',
      );
    }
    case 'tg_set_bot_description': {
      const d = description(args[0], 512);
      const language_code = language(args[1], 'language_code');
      return unwrap(await bot.call((api) => api.setMyDescription(d, { language_code })), 'setMyDescription');
    }
    case 'tg_set_bot_short_description': {
      const d = description(args[0], 120);
      const language_code = language(args[1], 'language_code');
      return unwrap(
        await bot.call((api) => api.setMyShortDescription(d, { language_code })),
        'setMyShortDescription',
      );
    }
    case 'tg_get_bot_description': {
      const language_code = language(args[0], 'language_code');
      return unwrap(await bot.call((api) => api.getMyDescription({ language_code })), 'getMyDescription')
        .description;
    }
    case 'tg_get_bot_short_description': {
      const language_code = language(args[0], 'language_code');
      return unwrap(
        await bot.call((api) => api.getMyShortDescription({ language_code })),
        'getMyShortDescription',
      ).short_description;
    }
    case 'tg_callback_url_open': {
      if (absent(args[0])) throw new Error('callback_query_id is required: the id of the pressed button');
      if (absent(args[1]))
        throw new Error(
          "url is required: a link to the bot with a start parameter, e.g. 'https://t.me/shop_bot?start=promo'",
        );
      const id = text(args[0], 'callback_query_id');
      const url = text(args[1], 'url').trim();
      if (!/^(https?|tg):\/\/\S+$/i.test(url))
        throw new Error(
          `url must be a link such as 'https://t.me/shop_bot?start=promo'; got '${url.slice(0, 100)}'`,
        );
      return unwrap(await bot.call((api) => api.answerCallbackQuery(id, { url })), 'answerCallbackQuery');
    }
  }
}
