/**
 * The fake Bot API's argument checks, with the real server's error descriptions where known,
 * so the client and the renderer are tested against the rules the messenger enforces.
 */

export class BotApiFailure extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number },
  ) {
    super(description);
  }
}

export const badRequest = (what: string) => new BotApiFailure(400, `Bad Request: ${what}`);

/** Fields the Bot API takes as JSON objects; in form and query bodies they arrive as JSON text. */
export const JSON_FIELDS = new Set(['reply_markup', 'scope', 'commands', 'allowed_updates', 'entities']);

export function chatId(value: unknown): number | string {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) return Number(value);
  if (typeof value === 'string' && /^@\w{4,32}$/.test(value)) return value;
  throw badRequest(value === undefined || value === '' ? 'chat_id is empty' : 'chat not found');
}

export function optionalString(params: Record<string, unknown>, name: string): string | undefined {
  const v = params[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`field "${name}" must be of type String`);
  return v;
}

export function languageCode(params: Record<string, unknown>): string {
  const code = optionalString(params, 'language_code') ?? '';
  if (code !== '' && !/^[a-z]{2}$/.test(code)) throw badRequest('invalid language code specified');
  return code;
}

const SCOPES = new Set([
  'default',
  'all_private_chats',
  'all_group_chats',
  'all_chat_administrators',
  'chat',
  'chat_administrators',
  'chat_member',
]);

/** BotCommandScope → the key its commands are stored under. */
export function scopeKey(scope: unknown): string {
  if (scope === undefined || scope === null) return 'default';
  if (typeof scope !== 'object' || Array.isArray(scope)) throw badRequest("can't parse BotCommandScope");
  const s = scope as Record<string, unknown>;
  if (typeof s.type !== 'string' || !SCOPES.has(s.type)) throw badRequest('wrong BotCommandScope type');
  if (!s.type.startsWith('chat')) return s.type;
  const chat = chatId(s.chat_id);
  if (s.type !== 'chat_member') return `${s.type}:${chat}`;
  if (typeof s.user_id !== 'number' && !(typeof s.user_id === 'string' && /^\d+$/.test(s.user_id)))
    throw badRequest('user not found');
  return `${s.type}:${chat}:${s.user_id}`;
}

export function botCommands(value: unknown): { command: string; description: string }[] {
  if (!Array.isArray(value)) throw badRequest('field "commands" must be an Array');
  if (value.length > 100) throw badRequest('BOT_COMMANDS_TOO_MUCH');
  return value.map((c) => {
    const { command, description } = (c ?? {}) as Record<string, unknown>;
    if (typeof command !== 'string' || !/^[a-z0-9_]{1,32}$/.test(command))
      throw badRequest('BOT_COMMAND_INVALID');
    if (typeof description !== 'string' || description.length < 1 || description.length > 256)
      throw badRequest('BOT_COMMAND_DESCRIPTION_INVALID');
    return { command, description };
  });
}

/** The text as the messenger measures it: after entities parsing, surrounding spaces removed. */
export function parsedText(text: string, parseMode: string | undefined): string {
  if (parseMode === undefined) return text.trim();
  if (parseMode === 'HTML')
    return text
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .trim();
  if (parseMode === 'MarkdownV2' || parseMode === 'Markdown') return text.trim();
  throw badRequest(`unsupported parse_mode "${parseMode}"`);
}

const utf8 = new TextEncoder();

function rows(markup: Record<string, unknown>, field: string): unknown[][] {
  const value = markup[field];
  if (!Array.isArray(value) || !value.every(Array.isArray))
    throw badRequest(`field "${field}" must be an Array of Arrays`);
  return value as unknown[][];
}

export function checkReplyMarkup(markup: unknown): void {
  if (markup === undefined || markup === null) return;
  if (typeof markup !== 'object' || Array.isArray(markup))
    throw badRequest("can't parse reply keyboard markup JSON object");
  const m = markup as Record<string, unknown>;
  if ('inline_keyboard' in m) {
    for (const button of rows(m, 'inline_keyboard').flat()) {
      const b = (button ?? {}) as Record<string, unknown>;
      if (typeof b.text !== 'string' || !b.text)
        throw badRequest("can't parse inline keyboard button: Text must be non-empty");
      const actions = ['url', 'callback_data', 'web_app', 'login_url', 'switch_inline_query', 'pay'].filter(
        (k) => b[k] !== undefined,
      );
      if (actions.length !== 1)
        throw badRequest(
          "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
        );
      if (b.callback_data !== undefined) {
        const bytes = typeof b.callback_data === 'string' ? utf8.encode(b.callback_data).length : 0;
        if (bytes < 1 || bytes > 64) throw badRequest('BUTTON_DATA_INVALID');
      }
      if (b.url !== undefined && (typeof b.url !== 'string' || !/^(https?|tg):\/\/\S+$/i.test(b.url)))
        throw badRequest('BUTTON_URL_INVALID');
    }
  } else if ('keyboard' in m) {
    for (const button of rows(m, 'keyboard').flat()) {
      const text = typeof button === 'string' ? button : (button as Record<string, unknown> | null)?.text;
      if (typeof text !== 'string' || !text)
        throw badRequest("can't parse keyboard button: Text must be non-empty");
    }
  } else if (m.remove_keyboard !== true && m.force_reply !== true) {
    throw badRequest("can't parse reply keyboard markup JSON object");
  }
}

export function checkMediaUrl(value: unknown, field: string): string {
  if (typeof value !== 'string' || !value) throw badRequest(`there is no ${field} in the request`);
  if (!/^https?:\/\/\S+$/i.test(value)) throw badRequest('wrong file identifier/HTTP URL specified');
  return value;
}
