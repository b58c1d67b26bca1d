import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Viber's REST Bot API on 127.0.0.1 for tests, written from the published reference
 * (developers.viber.com/docs/api/rest-bot-api and creators.viber.com/docs/bots-api): every
 * call a POST of JSON to `/pa/<method>` with the bot's token in `X-Viber-Auth-Token`,
 * answered HTTP 200 with `status` (0 ok) and `status_message` in the body; `get_account_info`,
 * `set_webhook` (which calls the webhook at once with a signed `event: "webhook"` and sets it
 * only on a 200; an empty url removes it), `send_message`; and the callbacks to the bot's
 * webhook, one event per POST, signed `X-Viber-Content-Signature` = hex HMAC-SHA256 of the raw
 * body with the token: `message`, `subscribed`, `unsubscribed`, `conversation_started` (whose
 * answer's body is the welcome message), `delivered`, `seen`, `failed`. `message_token`s are
 * written as 64-bit integers in the JSON text, as Viber writes them (past 2^53: consecutive
 * ones differ in their last digit only). Files it serves stand for Viber's media addresses.
 * Every API request is recorded.
 *
 * Sources of the errors and limits it enforces:
 * - status codes and their names (2 invalidAuthToken, 3 badData, 4 missingData, 5
 *   receiverNotRegistered, 6 receiverNotSubscribed, 12 tooManyRequests, 1 invalidUrl): the
 *   reference's "Error Codes" table and creators.viber.com/docs/bots-api/errors; a missing
 *   token answered 2 with "missing_auth_token" as the reference's "Authentication token" says;
 * - sends only to subscribers (6 otherwise), a person's first message subscribing them without
 *   a `subscribed` callback, and one welcome message as the answer to `conversation_started`:
 *   the reference's "Subscribed", "Conversation started" and "Sending a welcome message";
 * - text of at most 7,000 characters (the reference's text message; Infobip's Viber bots page
 *   says the same), `sender.name` required and at most 28 characters, a picture's `text` at
 *   most 120 characters, a file's `file_name` at most 256 and `size` required, a video's `size`
 *   required: the reference's message types tables; past them badData (3) or missingData (4),
 *   which of the two is the fake's reading of the table's words;
 * - keyboards: at most 24 buttons (issue 51's reading of the Keyboards page), `Columns` 1 to 6
 *   and `Rows` 1 to 2, `ActionType` one of reply, open-url, location-picker, share-phone, none,
 *   `Text` at most 250 characters (the Keyboards page's buttons table); past them badData (3);
 * - the rate limit (`perSecond`, answered 12 tooManyRequests as the reference names it; the
 *   real limit's figures are not published), outages (`trouble`: a 5xx, or no answer within the
 *   caller's timeout) and any status for the next sends (`trouble: {status}`), per test.
 */

export interface FakeBot {
  token: string;
  accountId: string;
  uri: string;
  name: string;
  icon: string;
  webhook: string | null;
  eventTypes: string[];
}

export interface FakeUser {
  id: string;
  name: string;
}

export interface SentMessage {
  token: string;
  bot: string;
  receiver: string;
  body: Record<string, unknown> & {
    type: string;
    text?: string;
    keyboard?: { Buttons: { ActionBody: string; Text: string; ActionType: string }[] };
  };
}

export type Trouble =
  | { status: number; times: number }
  | { http: number; times: number }
  | { hang: true; times: number };

export interface FakeViber {
  url: string;
  /** The API's base, for BLOCKBOT_VIBER_API_URL. */
  apiUrl: string;
  addBot(over?: Partial<Pick<FakeBot, 'name' | 'uri'>>): FakeBot;
  addUser(name?: string): FakeUser;
  bot(uri: string): FakeBot;
  /** A file at a Viber media address. */
  addFile(bytes: Uint8Array, type: string, name?: string): string;
  /** The messages sent to a user by a bot (the API's, welcome messages apart). */
  sent(bot: FakeBot, user: FakeUser): SentMessage[];
  calls: { method: string; body: unknown; answer: unknown }[];
  subscribed(bot: FakeBot, user: FakeUser): boolean;
  /** The person writes (which subscribes them): the callback's HTTP status. */
  userWrites(bot: FakeBot, user: FakeUser, message: Record<string, unknown>): Promise<number>;
  userSubscribes(bot: FakeBot, user: FakeUser): Promise<number>;
  userUnsubscribes(bot: FakeBot, user: FakeUser): Promise<number>;
  /** The person opens the chat: the answer (the welcome message, or {}). */
  userOpens(
    bot: FakeBot,
    user: FakeUser,
    context?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** A receipt on a sent message (delivered, seen, failed). */
  report(
    bot: FakeBot,
    user: FakeUser,
    token: string,
    event: 'delivered' | 'seen' | 'failed',
  ): Promise<number>;
  /** A raw callback, signed with the bot's token unless `signature` says otherwise. */
  deliver(bot: FakeBot, body: string, options?: { signature?: string | null }): Promise<Response>;
  /** Next sends' answers while in trouble. */
  trouble: Trouble | null;
  /** Sends per second per bot before 12 tooManyRequests; null: no limit. */
  perSecond: number | null;
  close(): Promise<void>;
}

const STATUS_NAMES: Record<number, string> = {
  0: 'ok',
  1: 'invalidUrl',
  2: 'invalidAuthToken',
  3: 'badData',
  4: 'missingData',
  5: 'receiverNotRegistered',
  6: 'receiverNotSubscribed',
  12: 'tooManyRequests',
};

const KEYBOARD_ACTIONS = new Set(['reply', 'open-url', 'location-picker', 'share-phone', 'none']);

export async function startFakeViber(): Promise<FakeViber> {
  const bots = new Map<string, FakeBot>();
  const users = new Map<string, FakeUser>();
  const subscriptions = new Set<string>();
  const files = new Map<string, { bytes: Uint8Array; type: string }>();
  const sent: SentMessage[] = [];
  const calls: FakeViber['calls'] = [];
  const rate = new Map<string, number[]>();
  let nextToken = 5_000_000_000_000_000_001n;
  const newToken = () => String(nextToken++);
  const subKey = (bot: FakeBot, userId: string) => `${bot.uri} ${userId}`;

  // JSON with 64-bit integers written as numbers (the tokens are strings inside the fake).
  const viberJson = (value: object) =>
    JSON.stringify(value).replace(/"message_token":"(\d+)"/g, '"message_token":$1');

  const fail = (status: number, message = STATUS_NAMES[status] ?? 'error') => ({
    status,
    status_message: message,
  });

  function checkKeyboard(keyboard: unknown): string | null {
    const k = keyboard as { Buttons?: unknown };
    if (!Array.isArray(k?.Buttons) || !k.Buttons.length) return 'keyboard.Buttons is required';
    if (k.Buttons.length > 24) return 'keyboard has more than 24 buttons';
    for (const b of k.Buttons as Record<string, unknown>[]) {
      const columns = b.Columns ?? 6;
      const rows = b.Rows ?? 1;
      if (typeof columns !== 'number' || columns < 1 || columns > 6) return 'button Columns must be 1-6';
      if (typeof rows !== 'number' || rows < 1 || rows > 2) return 'button Rows must be 1-2';
      if (!KEYBOARD_ACTIONS.has(String(b.ActionType ?? 'reply'))) return 'unknown ActionType';
      if (typeof b.ActionBody !== 'string' || !b.ActionBody) return 'button ActionBody is required';
      if (typeof b.Text === 'string' && b.Text.length > 250) return 'button Text over 250 characters';
    }
    return null;
  }

  function sendMessage(bot: FakeBot, body: Record<string, unknown>) {
    const receiver = String(body.receiver ?? '');
    const senderInfo = body.sender as { name?: unknown } | undefined;
    if (!receiver || typeof body.type !== 'string') return fail(4);
    if (typeof senderInfo?.name !== 'string' || !senderInfo.name) return fail(4, 'sender.name is required');
    if (senderInfo.name.length > 28) return fail(3, 'sender.name over 28 characters');
    if (!users.has(receiver)) return fail(5);
    if (!subscriptions.has(subKey(bot, receiver))) return fail(6);
    const problem = checkBody(body);
    if (problem) return problem;
    const token = newToken();
    sent.push({ token, bot: bot.uri, receiver, body: body as SentMessage['body'] });
    return { status: 0, status_message: 'ok', message_token: token, chat_hostname: 'SN-CHAT-01_' };
  }

  function checkBody(body: Record<string, unknown>) {
    switch (body.type) {
      case 'text':
        if (typeof body.text !== 'string' || !body.text) return fail(4, 'text is required');
        if (body.text.length > 7000) return fail(3, 'text over 7000 characters');
        break;
      case 'picture':
        if (typeof body.media !== 'string') return fail(4, 'media is required');
        if (typeof body.text !== 'string') return fail(4, 'text is required');
        if (body.text.length > 120) return fail(3, 'picture text over 120 characters');
        break;
      case 'video':
        if (typeof body.media !== 'string' || typeof body.size !== 'number')
          return fail(4, 'media and size are required');
        break;
      case 'file':
        if (
          typeof body.media !== 'string' ||
          typeof body.size !== 'number' ||
          typeof body.file_name !== 'string'
        )
          return fail(4, 'media, size and file_name are required');
        if (body.file_name.length > 256) return fail(3, 'file_name over 256 characters');
        break;
      default:
        return fail(3, `message type ${String(body.type)} is not supported here`);
    }
    if (body.keyboard !== undefined) {
      const problem = checkKeyboard(body.keyboard);
      if (problem) return fail(3, problem);
    }
    return null;
  }

  async function post(bot: FakeBot, payload: object, signature?: string | null): Promise<Response> {
    if (!bot.webhook) throw new Error(`the bot ${bot.uri} has no webhook`);
    const text = viberJson(payload);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const sig =
      signature === undefined ? createHmac('sha256', bot.token).update(text).digest('hex') : signature;
    if (sig !== null) headers['x-viber-content-signature'] = sig;
    return fetch(bot.webhook, { method: 'POST', headers, body: text });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      if (req.method === 'GET' && path.startsWith('/media/')) {
        const file = files.get(path.slice('/media/'.length).split('/')[0]);
        if (!file) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': file.type });
        return void res.end(file.bytes);
      }
      const method = /^\/pa\/([a-z_]+)$/.exec(path)?.[1];
      if (req.method !== 'POST' || !method) return void res.writeHead(404).end();
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        return answer(res, method, body, fail(3));
      }
      const token = req.headers['x-viber-auth-token'];
      if (typeof token !== 'string' || !token)
        return answer(res, method, body, fail(2, 'missing_auth_token'));
      const bot = [...bots.values()].find((b) => b.token === token);
      if (!bot) return answer(res, method, body, fail(2));
      if (method === 'send_message' && fake.trouble && fake.trouble.times > 0) {
        const trouble = fake.trouble;
        trouble.times--;
        calls.push({ method, body, answer: trouble });
        if ('hang' in trouble) return; // no answer: the caller's timeout
        if ('http' in trouble)
          return void res
            .writeHead(trouble.http, { 'content-type': 'text/html' })
            .end('<html>Service Unavailable</html>');
        return answer(res, method, body, fail(trouble.status), false);
      }
      if (method === 'send_message' && fake.perSecond !== null) {
        const now = Date.now();
        const recent = (rate.get(bot.uri) ?? []).filter((t) => now - t < 1000);
        if (recent.length >= fake.perSecond) return answer(res, method, body, fail(12));
        rate.set(bot.uri, [...recent, now]);
      }
      switch (method) {
        case 'get_account_info':
          return answer(res, method, body, {
            status: 0,
            status_message: 'ok',
            id: bot.accountId,
            name: bot.name,
            uri: bot.uri,
            icon: bot.icon,
            webhook: bot.webhook ?? '',
            subscribers_count: 0,
          });
        case 'set_webhook': {
          const url = String(body.url ?? '');
          if (!url) {
            bot.webhook = null;
            return answer(res, method, body, { status: 0, status_message: 'ok' });
          }
          const before = bot.webhook;
          bot.webhook = url;
          let ok = false;
          try {
            ok =
              (
                await post(bot, {
                  event: 'webhook',
                  timestamp: Date.now(),
                  chat_hostname: 'SN-CHAT-01_',
                  message_token: newToken(),
                })
              ).status === 200;
          } catch {
            ok = false;
          }
          if (!ok) {
            bot.webhook = before;
            return answer(res, method, body, fail(1, 'invalidUrl'));
          }
          bot.eventTypes = Array.isArray(body.event_types) ? body.event_types.map(String) : [];
          return answer(res, method, body, { status: 0, status_message: 'ok', event_types: bot.eventTypes });
        }
        case 'send_message':
          return answer(res, method, body, sendMessage(bot, body));
        default:
          return answer(res, method, body, fail(3, `${method} is not supported by the fake`));
      }
    });
  });

  function answer(res: http.ServerResponse, method: string, body: unknown, value: object, record = true) {
    if (record) calls.push({ method, body, answer: value });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(viberJson(value));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const userObject = (user: FakeUser) => ({
    id: user.id,
    name: user.name,
    avatar: `${url}/media/avatar`,
    language: 'en',
    country: 'GB',
    api_version: 10,
  });

  const fake: FakeViber = {
    url,
    apiUrl: `${url}/pa`,
    trouble: null,
    perSecond: null,
    calls,
    addBot(over = {}) {
      const n = bots.size + 1;
      const bot: FakeBot = {
        token: `${randomBytes(8).toString('hex')}-${randomBytes(8).toString('hex')}-${randomBytes(8).toString('hex')}`,
        accountId: `pa:${5_000_000_000 + n}`,
        uri: over.uri ?? `testbot${n}`,
        name: over.name ?? `Test Bot ${n}`,
        icon: `${url}/media/icon-${n}`,
        webhook: null,
        eventTypes: [],
      };
      bots.set(bot.uri, bot);
      return bot;
    },
    addUser(name) {
      const user = {
        id: `${randomBytes(16).toString('base64').slice(0, 22)}==`,
        name: name ?? `User ${users.size + 1}`,
      };
      users.set(user.id, user);
      return user;
    },
    bot: (uri) => {
      const bot = bots.get(uri);
      if (!bot) throw new Error(`no bot ${uri}`);
      return bot;
    },
    addFile(bytes, type, name = 'file') {
      const id = randomBytes(8).toString('hex');
      files.set(id, { bytes, type });
      return `${url}/media/${id}/${name}`;
    },
    sent: (bot, user) => sent.filter((s) => s.bot === bot.uri && s.receiver === user.id),
    subscribed: (bot, user) => subscriptions.has(subKey(bot, user.id)),
    async userWrites(bot, user, message) {
      subscriptions.add(subKey(bot, user.id));
      const res = await post(bot, {
        event: 'message',
        timestamp: Date.now(),
        chat_hostname: 'SN-CHAT-01_',
        message_token: newToken(),
        sender: userObject(user),
        message,
        silent: false,
      });
      return res.status;
    },
    async userSubscribes(bot, user) {
      subscriptions.add(subKey(bot, user.id));
      return (
        await post(bot, {
          event: 'subscribed',
          timestamp: Date.now(),
          user: userObject(user),
          message_token: newToken(),
        })
      ).status;
    },
    async userUnsubscribes(bot, user) {
      subscriptions.delete(subKey(bot, user.id));
      return (
        await post(bot, {
          event: 'unsubscribed',
          timestamp: Date.now(),
          user_id: user.id,
          message_token: newToken(),
        })
      ).status;
    },
    async userOpens(bot, user, context) {
      const res = await post(bot, {
        event: 'conversation_started',
        timestamp: Date.now(),
        message_token: newToken(),
        type: 'open',
        ...(context ? { context } : {}),
        user: userObject(user),
        subscribed: subscriptions.has(subKey(bot, user.id)),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : {} };
    },
    async report(bot, user, token, event) {
      return (
        await post(bot, {
          event,
          timestamp: Date.now(),
          message_token: token,
          user_id: user.id,
          ...(event === 'failed' ? { desc: 'failed because the user is not subscribed' } : {}),
        })
      ).status;
    },
    async deliver(bot, body, options = {}) {
      if (!bot.webhook) throw new Error(`the bot ${bot.uri} has no webhook`);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const sig =
        options.signature === undefined
          ? createHmac('sha256', bot.token).update(body).digest('hex')
          : options.signature;
      if (sig !== null) headers['x-viber-content-signature'] = sig;
      return fetch(bot.webhook, { method: 'POST', headers, body });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
