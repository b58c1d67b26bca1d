import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Interception, interrupted } from '@/server/testing/intercepted';
import {
  BotApiFailure,
  badRequest,
  botCommands,
  chatId,
  checkMediaUrl,
  checkReplyMarkup,
  JSON_FIELDS,
  languageCode,
  optionalString,
  parsedText,
  scopeKey,
} from './fake-bot-checks';

/**
 * A Bot API server on 127.0.0.1 for tests: `/bot<token>/<method>` with JSON, form or query
 * parameters, `{ok, result}` answers, the real error codes (401 unknown token, 403 blocked,
 * 409 getUpdates beside a webhook, 429 with retry_after over the rate limits), and updates sent
 * to a webhook with the secret header or queued for getUpdates. Every call is recorded.
 */

export interface FakeFile {
  path: string;
  bytes: Uint8Array;
  /** The size getFile answers, when it is not the bytes' (a file that grew, a lying server). */
  reportedSize?: number;
}

export interface FakeFileOptions {
  path?: string;
  fileId?: string;
  reportedSize?: number;
}

export interface FakeLimits {
  /** Sends per bot in any second. */
  botPerSecond: number;
  /** Sends per private chat in any second. */
  chatPerSecond: number;
  /** Sends per group chat (negative id) in any minute. */
  groupPerMinute: number;
}

export interface RecordedCall {
  token: string;
  method: string;
  params: Record<string, unknown>;
  status: number;
  answer: BotApiAnswer;
  at: number;
}

export type BotApiAnswer =
  | { ok: true; result: unknown; description?: string }
  | { ok: false; error_code: number; description: string; parameters?: { retry_after?: number } };

export interface FakeBot {
  token: string;
  id: number;
  username: string;
  firstName: string;
  webhook: { url: string; secretToken?: string } | null;
  queue: { update_id: number }[];
  commands: Map<string, { command: string; description: string }[]>;
  descriptions: Map<string, string>;
  shortDescriptions: Map<string, string>;
  blocked: Set<string>;
  /** Callback queries not answered yet, with when they were pressed (the fake's clock). */
  openCallbackQueries: Map<string, number>;
  /** Business connections by id, as the last `business_connection` update pushed left them. */
  businessConnections: Map<string, { enabled: boolean; canReply: boolean }>;
  /** Files by file_id, downloadable at `/file/bot<token>/<path>` (addFile). */
  files: Map<string, FakeFile>;
  /** Each user's profile photos, newest first: the file ids of their sizes (setProfilePhoto). */
  profilePhotos: Map<number, { file_id: string; width: number }[][]>;
}

interface BotState extends FakeBot {
  nextUpdateId: number;
  nextMessageId: number;
  sends: number[];
  chatSends: Map<string, number[]>;
  poll?: { resolve: (answer: BotApiAnswer) => void };
}

const SEND_METHODS: Record<string, string | null> = {
  sendmessage: null,
  sendphoto: 'photo',
  sendvideo: 'video',
  senddocument: 'document',
  sendaudio: 'audio',
};
const MAX_BODY = 10 * 1024 * 1024;
/** getFile refuses larger files, as the real Bot API does. */
const MAX_DOWNLOAD = 20 * 1024 * 1024;

export type { Interception };

/** A request as `intercept` sees it: its bot and method, and its JSON parameters when it has them. */
export interface InterceptedRequest {
  token: string;
  method: string;
  params: Record<string, unknown>;
}

export interface FakeBotApi {
  /** The API root to give the client, e.g. http://127.0.0.1:40123. */
  url: string;
  /**
   * The test's hand on the network: called for each Bot API request as it arrives; its answer
   * (awaited, so a test can hold a request: the messenger counts a send when it processes it)
   * says what happens to it. Unset, every request is processed.
   */
  intercept: ((request: InterceptedRequest) => Interception | Promise<Interception>) | null;
  calls: RecordedCall[];
  limits: FakeLimits | null;
  addBot(bot?: { token?: string; username?: string; firstName?: string }): FakeBot;
  bot(token: string): FakeBot;
  blockChat(token: string, chat: number | string): void;
  /** A file the bot can getFile and download, e.g. one a client sent; answers its file_id. */
  addFile(token: string, bytes: Uint8Array, options?: FakeFileOptions): string;
  /** A user's new profile photo (a 160 px and a 640 px size, both `bytes`); answers the small one's file_id. */
  setProfilePhoto(token: string, userId: number, bytes: Uint8Array): string;
  /** The token is revoked (BotFather): every call with it answers 401, a waiting poll included. */
  revoke(token: string): void;
  /**
   * Sends an update as the messenger would: POSTed to the webhook with the secret header when
   * one is set, otherwise queued for getUpdates. An update_id is given when it has none.
   */
  pushUpdate(
    token: string,
    update: Record<string, unknown>,
  ): Promise<{ update_id: number; via: 'webhook'; status: number } | { update_id: number; via: 'queue' }>;
  callsOf(method: string, token?: string): RecordedCall[];
  /** Resolves once a getUpdates long poll of the bot is waiting. */
  waitForPoll(token: string, timeoutMs?: number): Promise<void>;
  /** Resolves with the first call (recorded or future) matching; rejects after timeoutMs. */
  waitForCall(match: (call: RecordedCall) => boolean, timeoutMs?: number): Promise<RecordedCall>;
  /** Calls `listener` with every call from now on (a benchmark's many waiters, without scanning); answers the unsubscribe. */
  onCall(listener: (call: RecordedCall) => void): () => void;
  close(): Promise<void>;
}

export async function startFakeBotApi(
  options: {
    limits?: Partial<FakeLimits> | null;
    now?: () => number;
    /** A fixed port, for a server started before the fake (the browser tests' app); 0 picks one. */
    port?: number;
    /**
     * How long a pressed button may wait for its answerCallbackQuery. The Bot API documents no
     * figure; answers later than about 15 s are refused in practice.
     */
    callbackAnswerSeconds?: number;
  } = {},
): Promise<FakeBotApi> {
  const now = options.now ?? Date.now;
  const callbackAnswerMs = (options.callbackAnswerSeconds ?? 15) * 1000;
  const bots = new Map<string, BotState>();
  const calls: RecordedCall[] = [];
  const recorded = new EventEmitter();
  // Every waiting test or benchmark chat listens at once.
  recorded.setMaxListeners(0);
  let botCount = 0;
  const limits: FakeLimits | null =
    options.limits === null
      ? null
      : { botPerSecond: 30, chatPerSecond: 1, groupPerMinute: 20, ...options.limits };

  function user(bot: BotState) {
    return { id: bot.id, is_bot: true, first_name: bot.firstName, username: bot.username };
  }

  function checkRate(bot: BotState, chat: string): void {
    if (!limits) return;
    const at = now();
    const group = chat.startsWith('-');
    const windowMs = group ? 60_000 : 1000;
    const perChat = group ? limits.groupPerMinute : limits.chatPerSecond;
    bot.sends = bot.sends.filter((t) => t > at - 1000);
    const chatSends = (bot.chatSends.get(chat) ?? []).filter((t) => t > at - windowMs);
    bot.chatSends.set(chat, chatSends);
    const waits: number[] = [];
    if (bot.sends.length >= limits.botPerSecond) waits.push(bot.sends[0] + 1000 - at);
    if (chatSends.length >= perChat) waits.push(chatSends[0] + windowMs - at);
    if (waits.length) {
      const retryAfter = Math.max(1, Math.ceil(Math.max(...waits) / 1000));
      throw new BotApiFailure(429, `Too Many Requests: retry after ${retryAfter}`, {
        retry_after: retryAfter,
      });
    }
    bot.sends.push(at);
    chatSends.push(at);
  }

  /** Sends through a business account need a connection that is on and may reply. */
  function checkBusinessConnection(bot: BotState, id: unknown): void {
    if (id === undefined) return;
    const connection = typeof id === 'string' ? bot.businessConnections.get(id) : undefined;
    if (!connection) throw badRequest('BUSINESS_CONNECTION_INVALID');
    if (!connection.enabled || !connection.canReply) throw badRequest('BUSINESS_CONNECTION_NOT_ALLOWED');
  }

  function send(bot: BotState, method: string, params: Record<string, unknown>) {
    const chat = chatId(params.chat_id);
    const mediaField = SEND_METHODS[method];
    const message: Record<string, unknown> = {};
    if (mediaField === null) {
      if (typeof params.text !== 'string') throw badRequest('message text is empty');
      const parseMode = optionalString(params, 'parse_mode');
      const text = parsedText(params.text, parseMode);
      if (!text) throw badRequest('message text is empty');
      if (text.length > 4096) throw badRequest('message is too long');
      message.text = text;
    } else {
      const url = checkMediaUrl(params[mediaField], mediaField);
      const caption = parsedText(
        optionalString(params, 'caption') ?? '',
        optionalString(params, 'parse_mode'),
      );
      if (caption.length > 1024) throw badRequest('message caption is too long');
      if (caption) message.caption = caption;
      message[mediaField] = { file_id: `fake-${mediaField}-${bot.nextMessageId}`, url };
    }
    checkReplyMarkup(params.reply_markup);
    checkBusinessConnection(bot, params.business_connection_id);
    if (bot.blocked.has(String(chat))) throw new BotApiFailure(403, 'Forbidden: bot was blocked by the user');
    checkRate(bot, String(chat));
    const markup = params.reply_markup as Record<string, unknown> | undefined;
    return {
      message_id: bot.nextMessageId++,
      from: user(bot),
      chat: { id: chat, type: typeof chat === 'number' && chat < 0 ? 'group' : 'private' },
      date: Math.floor(now() / 1000),
      ...(typeof params.business_connection_id === 'string'
        ? { business_connection_id: params.business_connection_id }
        : {}),
      ...message,
      ...(markup?.inline_keyboard ? { reply_markup: { inline_keyboard: markup.inline_keyboard } } : {}),
    };
  }

  function getUpdates(bot: BotState, params: Record<string, unknown>): Promise<BotApiAnswer> | unknown[] {
    if (bot.webhook)
      throw new BotApiFailure(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    const offset = Number(params.offset ?? 0);
    const limit = Math.min(Math.max(Number(params.limit ?? 100), 1), 100);
    const timeout = Math.max(Number(params.timeout ?? 0), 0);
    if (offset > 0) bot.queue = bot.queue.filter((u) => u.update_id >= offset);
    const pick = () => (offset < 0 ? bot.queue.slice(offset) : bot.queue).slice(0, limit);
    // A newer poll ends the one waiting, as the real server does.
    bot.poll?.resolve({
      ok: false,
      error_code: 409,
      description:
        'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
    });
    bot.poll = undefined;
    if (bot.queue.length || timeout === 0) return pick();
    return new Promise<BotApiAnswer>((resolve) => {
      const poll = {
        resolve: (answer: BotApiAnswer) => {
          clearTimeout(timer);
          if (bot.poll === poll) bot.poll = undefined;
          resolve(answer);
        },
      };
      const timer = setTimeout(() => poll.resolve({ ok: true, result: pick() }), timeout * 1000);
      bot.poll = poll;
      recorded.emit('poll', bot.token);
    });
  }

  function setWebhook(bot: BotState, params: Record<string, unknown>) {
    const url = optionalString(params, 'url') ?? '';
    const secretToken = optionalString(params, 'secret_token');
    if (secretToken !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secretToken))
      throw badRequest('secret token contains unallowed characters');
    if (url && !/^https?:\/\/\S+$/i.test(url)) throw badRequest('invalid webhook URL specified');
    if (params.drop_pending_updates === true || params.drop_pending_updates === 'true') bot.queue = [];
    bot.webhook = url ? { url, secretToken } : null;
    bot.poll?.resolve({ ok: true, result: [] });
    return { result: true, description: url ? 'Webhook was set' : 'Webhook was deleted' };
  }

  function description(
    map: Map<string, string>,
    field: string,
    max: number,
    params: Record<string, unknown>,
  ) {
    const lang = languageCode(params);
    const text = optionalString(params, field) ?? '';
    if (text.length > max) throw badRequest(`${field.toUpperCase()}_INVALID`);
    if (text) map.set(lang, text);
    else map.delete(lang);
    return true;
  }

  /** Returns the result, or {result, description} for answers that carry one. */
  function dispatch(bot: BotState, method: string, params: Record<string, unknown>): unknown {
    if (method in SEND_METHODS) return send(bot, method, params);
    switch (method) {
      case 'getme':
        return {
          ...user(bot),
          can_join_groups: true,
          can_read_all_group_messages: false,
          supports_inline_queries: false,
        };
      case 'setwebhook':
        return setWebhook(bot, params);
      case 'deletewebhook':
        return setWebhook(bot, { drop_pending_updates: params.drop_pending_updates });
      case 'getwebhookinfo':
        return {
          url: bot.webhook?.url ?? '',
          has_custom_certificate: false,
          pending_update_count: bot.queue.length,
        };
      case 'getupdates':
        return getUpdates(bot, params);
      case 'getfile': {
        const id = optionalString(params, 'file_id') ?? '';
        const file = bot.files.get(id);
        if (!file) throw badRequest('invalid file_id');
        const size = file.reportedSize ?? file.bytes.byteLength;
        if (size > MAX_DOWNLOAD) throw badRequest('file is too big');
        return {
          file_id: id,
          file_unique_id: `u-${id}`,
          file_size: size,
          file_path: file.path,
        };
      }
      case 'getuserprofilephotos': {
        const userId = Number(params.user_id);
        if (!Number.isSafeInteger(userId) || userId <= 0) throw badRequest('user not found');
        const all = bot.profilePhotos.get(userId) ?? [];
        const offset = Number(params.offset ?? 0);
        const limit = Math.min(Math.max(Number(params.limit ?? 100), 1), 100);
        const photos = all
          .slice(offset, offset + limit)
          .map((sizes) => sizes.map((s) => ({ ...s, file_unique_id: `u-${s.file_id}`, height: s.width })));
        return { total_count: all.length, photos };
      }
      case 'answercallbackquery': {
        // One answer per query, within the answer window: a second or a late one is refused.
        const id = optionalString(params, 'callback_query_id') ?? '';
        const pressedAt = bot.openCallbackQueries.get(id);
        bot.openCallbackQueries.delete(id);
        if (pressedAt === undefined || now() - pressedAt > callbackAnswerMs)
          throw badRequest('query is too old and response timeout expired or query ID is invalid');
        if ((optionalString(params, 'text') ?? '').length > 200) throw badRequest('MESSAGE_TOO_LONG');
        return true;
      }
      case 'setmycommands': {
        const key = `${scopeKey(params.scope)}|${languageCode(params)}`;
        const commands = botCommands(params.commands);
        if (commands.length) bot.commands.set(key, commands);
        else bot.commands.delete(key);
        return true;
      }
      case 'getmycommands':
        return bot.commands.get(`${scopeKey(params.scope)}|${languageCode(params)}`) ?? [];
      case 'deletemycommands':
        bot.commands.delete(`${scopeKey(params.scope)}|${languageCode(params)}`);
        return true;
      case 'setmydescription':
        return description(bot.descriptions, 'description', 512, params);
      case 'getmydescription':
        return { description: bot.descriptions.get(languageCode(params)) ?? '' };
      case 'setmyshortdescription':
        return description(bot.shortDescriptions, 'short_description', 120, params);
      case 'getmyshortdescription':
        return { short_description: bot.shortDescriptions.get(languageCode(params)) ?? '' };
      default:
        throw new BotApiFailure(404, 'Not Found');
    }
  }

  async function answer(
    req: http.IncomingMessage,
    body: string,
  ): Promise<[number, BotApiAnswer, string, Record<string, unknown>]> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    const params: Record<string, unknown> = {};
    try {
      if (!match) throw new BotApiFailure(404, 'Not Found');
      const token = decodeURIComponent(match[1]);
      const bot = bots.get(token);
      if (!bot) throw new BotApiFailure(401, 'Unauthorized');
      Object.assign(params, readParams(url, req.headers['content-type'] ?? '', body));
      const out = await dispatch(bot, match[2].toLowerCase(), params);
      if (out && typeof out === 'object' && 'ok' in out)
        return [(out as { ok: boolean }).ok ? 200 : 409, out as BotApiAnswer, token, params];
      const withDescription = out && typeof out === 'object' && 'description' in out && 'result' in out;
      const ok = withDescription
        ? { ok: true as const, ...(out as { result: unknown; description: string }) }
        : { ok: true as const, result: out };
      return [200, ok, token, params];
    } catch (error) {
      const f = error instanceof BotApiFailure ? error : new BotApiFailure(500, 'Internal Server Error');
      const failed: BotApiAnswer = {
        ok: false,
        error_code: f.code,
        description: f.description,
        ...(f.parameters ? { parameters: f.parameters } : {}),
      };
      return [f.code, failed, match ? decodeURIComponent(match[1]) : '', params];
    }
  }

  /** GET /file/bot<token>/<path>: a file's bytes, as the Bot API's file server gives them. */
  function download(req: http.IncomingMessage, res: http.ServerResponse, match: RegExpExecArray): void {
    const token = decodeURIComponent(match[1]);
    const path = decodeURIComponent(match[2]);
    const file = [...(bots.get(token)?.files.values() ?? [])].find((f) => f.path === path);
    const status = file && req.method === 'GET' ? 200 : 404;
    const call = {
      token,
      method: 'file',
      params: { path },
      status,
      answer: { ok: status === 200, result: null } as BotApiAnswer,
      at: now(),
    };
    calls.push(call);
    recorded.emit('call', call);
    if (!file || status !== 200) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: false, error_code: 404, description: 'Not Found' }));
      return;
    }
    // A file whose size was misreported comes without a length, in chunks, as it is read.
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      ...(file.reportedSize === undefined ? { 'content-length': file.bytes.byteLength } : {}),
    });
    res.end(file.bytes);
  }

  const server = http.createServer((req, res) => {
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(new URL(req.url ?? '/', 'http://fake').pathname);
    if (file) {
      req.resume();
      req.on('end', () => download(req, res, file));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', async () => {
      const fate = api.intercept ? await api.intercept(intercepted(req, chunks)) : 'process';
      if (interrupted(fate, req, res)) return;
      const [status, body, token, params] =
        size > MAX_BODY
          ? [413, { ok: false as const, error_code: 413, description: 'Request Entity Too Large' }, '', {}]
          : await answer(req, Buffer.concat(chunks).toString('utf8'));
      const method = /\/([A-Za-z]+)$/.exec(new URL(req.url ?? '/', 'http://fake').pathname)?.[1] ?? '';
      const call = { token, method, params, status, answer: body, at: now() };
      calls.push(call);
      recorded.emit('call', call);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function intercepted(req: http.IncomingMessage, chunks: Buffer[]): InterceptedRequest {
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(new URL(req.url ?? '/', 'http://fake').pathname);
    let params: Record<string, unknown> = {};
    try {
      params = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      // Form or query parameters: the test sees the method only.
    }
    return { token: decodeURIComponent(match?.[1] ?? ''), method: match?.[2] ?? '', params };
  }

  function state(token: string): BotState {
    const bot = bots.get(token);
    if (!bot) throw new Error(`the fake Bot API has no bot with this token; call addBot first`);
    return bot;
  }

  function addFile(token: string, bytes: Uint8Array, options: FakeFileOptions = {}): string {
    const bot = state(token);
    const fileId =
      options.fileId ?? `AgAC${bot.id}-${bot.files.size + 1}-${Math.random().toString(36).slice(2, 10)}`;
    bot.files.set(fileId, {
      path: options.path ?? `documents/file_${bot.files.size + 1}.bin`,
      bytes,
      reportedSize: options.reportedSize,
    });
    return fileId;
  }

  const api: FakeBotApi = {
    url: `http://127.0.0.1:${port}`,
    intercept: null,
    calls,
    limits,
    addBot(input = {}) {
      botCount++;
      const id = 7_000_000_000 + botCount;
      const bot: BotState = {
        token: input.token ?? `${id}:FAKE-${botCount}-${Math.random().toString(36).slice(2, 12)}`,
        id,
        username: input.username ?? `fake${botCount}_bot`,
        firstName: input.firstName ?? `Fake bot ${botCount}`,
        webhook: null,
        queue: [],
        commands: new Map(),
        descriptions: new Map(),
        shortDescriptions: new Map(),
        blocked: new Set(),
        openCallbackQueries: new Map(),
        businessConnections: new Map(),
        files: new Map(),
        profilePhotos: new Map(),
        nextUpdateId: 100_000,
        nextMessageId: 1,
        sends: [],
        chatSends: new Map(),
      };
      bots.set(bot.token, bot);
      return bot;
    },
    bot: state,
    blockChat(token, chat) {
      state(token).blocked.add(String(chat));
    },
    addFile,
    setProfilePhoto(token, userId, bytes) {
      const bot = state(token);
      const n = (bot.profilePhotos.get(userId)?.length ?? 0) + 1;
      const small = addFile(token, bytes, { path: `profile_photos/${userId}_${n}_s.jpg` });
      const big = addFile(token, bytes, { path: `profile_photos/${userId}_${n}_b.jpg` });
      bot.profilePhotos.set(userId, [
        [
          { file_id: small, width: 160 },
          { file_id: big, width: 640 },
        ],
        ...(bot.profilePhotos.get(userId) ?? []),
      ]);
      return small;
    },
    revoke(token) {
      const bot = state(token);
      bots.delete(token);
      bot.poll?.resolve({ ok: false, error_code: 401, description: 'Unauthorized' });
    },
    async pushUpdate(token, input) {
      const bot = state(token);
      const update_id = typeof input.update_id === 'number' ? input.update_id : bot.nextUpdateId++;
      const update: Record<string, unknown> & { update_id: number } = { ...input, update_id };
      const query = update.callback_query as { id?: unknown } | undefined;
      if (typeof query?.id === 'string') bot.openCallbackQueries.set(query.id, now());
      const connection = update.business_connection as
        | { id?: unknown; is_enabled?: unknown; rights?: { can_reply?: unknown } }
        | undefined;
      if (typeof connection?.id === 'string')
        bot.businessConnections.set(connection.id, {
          enabled: connection.is_enabled === true,
          canReply: connection.rights?.can_reply === true,
        });
      if (bot.webhook) {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (bot.webhook.secretToken) headers['x-telegram-bot-api-secret-token'] = bot.webhook.secretToken;
        const response = await fetch(bot.webhook.url, {
          method: 'POST',
          headers,
          body: JSON.stringify(update),
        });
        await response.arrayBuffer();
        return { update_id, via: 'webhook', status: response.status };
      }
      bot.queue.push(update);
      const poll = bot.poll;
      if (poll) poll.resolve({ ok: true, result: bot.queue.slice(0, 100) });
      return { update_id, via: 'queue' };
    },
    callsOf(method, token) {
      const m = method.toLowerCase();
      return calls.filter((c) => c.method.toLowerCase() === m && (token === undefined || c.token === token));
    },
    waitForPoll(token, timeoutMs = 10_000) {
      if (state(token).poll) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const onPoll = (polled: string) => {
          if (polled !== token) return;
          clearTimeout(timer);
          recorded.off('poll', onPoll);
          resolve();
        };
        const timer = setTimeout(() => {
          recorded.off('poll', onPoll);
          reject(new Error(`no getUpdates long poll within ${timeoutMs} ms`));
        }, timeoutMs);
        recorded.on('poll', onPoll);
      });
    },
    waitForCall(match, timeoutMs = 10_000) {
      const found = calls.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const onCall = (call: RecordedCall) => {
          if (!match(call)) return;
          clearTimeout(timer);
          recorded.off('call', onCall);
          resolve(call);
        };
        const timer = setTimeout(() => {
          recorded.off('call', onCall);
          reject(new Error(`no matching Bot API call within ${timeoutMs} ms`));
        }, timeoutMs);
        recorded.on('call', onCall);
      });
    },
    onCall(listener) {
      recorded.on('call', listener);
      return () => recorded.off('call', listener);
    },
    close: () =>
      new Promise((resolve) => {
        for (const bot of bots.values()) bot.poll?.resolve({ ok: true, result: [] });
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}

/** Query parameters, then a JSON or urlencoded body; JSON fields sent as text are parsed. */
function readParams(url: URL, contentType: string, body: string): Record<string, unknown> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  if (body) {
    if (contentType.startsWith('application/json')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw badRequest("can't parse JSON object");
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw badRequest("can't parse JSON object");
      Object.assign(params, parsed);
    } else if (contentType.startsWith('application/x-www-form-urlencoded')) {
      Object.assign(params, Object.fromEntries(new URLSearchParams(body)));
    } else {
      throw badRequest(
        `the fake Bot API reads JSON or urlencoded bodies, not "${contentType.split(';')[0]}"`,
      );
    }
  }
  for (const field of JSON_FIELDS) {
    if (typeof params[field] !== 'string') continue;
    try {
      params[field] = JSON.parse(params[field] as string);
    } catch {
      throw badRequest(`can't parse ${field} JSON object`);
    }
  }
  return params;
}
