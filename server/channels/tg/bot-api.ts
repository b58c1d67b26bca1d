import { Api, GrammyError, HttpError } from 'grammy';
import { SafeHttpError } from '@/server/http';
import { messengerFetch } from '../messenger-fetch';
import { tgEnv } from './env';

const DEFAULT_API_ROOT = 'https://api.telegram.org';

/** What a Bot API call came to, in the few cases the channel treats differently. */
export type BotCallResult<T> =
  | { ok: true; result: T }
  | { ok: false; reason: 'retry_after'; retryAfter: number; description: string }
  /** 403: the user blocked the bot, deleted the account, or the bot was removed from the group. */
  | { ok: false; reason: 'blocked'; description: string }
  /** 401 (or 404 for a malformed token): the token was revoked or mistyped. */
  | { ok: false; reason: 'invalid_token'; description: string }
  | { ok: false; reason: 'bad_request'; code: number; description: string }
  /** The server could not be reached or failed (5xx): worth retrying later. */
  | { ok: false; reason: 'unavailable'; description: string };

export interface BotApiClient {
  /** grammY's Api; its calls throw, `call` turns them into a BotCallResult. */
  api: Api;
  call<T>(run: (api: Api) => Promise<T>): Promise<BotCallResult<T>>;
}

export function tgApiRoot(): string {
  return (tgEnv().BLOCKBOT_TG_API_ROOT ?? DEFAULT_API_ROOT).replace(/\/+$/, '');
}

// biome-ignore lint/style/noRestrictedGlobals: fetch's type only; the call is safeFetch's
type Fetch = typeof fetch;

/**
 * A Bot API client for one bot whose every request goes through safeFetch (address checks,
 * timeouts, size cap). The token is part of grammY's URLs, so every error text leaving here
 * has it replaced.
 */
export function botApiClient(token: string, options: { apiRoot?: string } = {}): BotApiClient {
  const api = new Api(token, {
    apiRoot: (options.apiRoot ?? tgApiRoot()).replace(/\/+$/, ''),
    // grammY reads only the response's json(): a whole Response (with its web stream) for every
    // call was a measurable part of each send's CPU (bench/tg.bench.ts).
    fetch: ((url: string | URL, init?: RequestInit) => viaSafeFetch(String(url), init)) as unknown as Fetch,
  });
  return {
    api,
    async call(run) {
      try {
        return { ok: true, result: await run(api) };
      } catch (error) {
        return toResult(error, token);
      }
    },
  };
}

const tgFetch = messengerFetch('tg');

async function viaSafeFetch(url: string, init: RequestInit = {}): Promise<Pick<Response, 'json'>> {
  if (init.body !== undefined && typeof init.body !== 'string')
    throw new Error('uploading files to the Bot API is not supported: send them by URL');
  // A long poll holds the request for its timeout; give it that and a margin.
  const poll = url.endsWith('/getUpdates') ? Number(JSON.parse(init.body ?? '{}').timeout ?? 0) : 0;
  const response = await tgFetch(url, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json' },
    body: init.body ?? undefined,
    ...(poll > 0 ? { timeoutMs: (poll + 10) * 1000 } : {}),
  });
  return {
    json: async () => {
      try {
        return JSON.parse(response.body);
      } catch {
        // A proxy's error page in front of the service: the call failed there.
        throw new Error(`the Bot API answered HTTP ${response.status} with a page that is not its JSON`);
      }
    },
  };
}

function redact(text: string, token: string): string {
  return token ? text.split(token).join('<token>') : text;
}

function toResult(error: unknown, token: string): BotCallResult<never> {
  if (error instanceof GrammyError) {
    const description = redact(error.description, token);
    if (error.error_code === 429)
      return { ok: false, reason: 'retry_after', retryAfter: error.parameters.retry_after ?? 1, description };
    if (error.error_code === 403) return { ok: false, reason: 'blocked', description };
    if (error.error_code === 401 || (error.error_code === 404 && error.description === 'Not Found'))
      return { ok: false, reason: 'invalid_token', description };
    if (error.error_code >= 500) return { ok: false, reason: 'unavailable', description };
    return { ok: false, reason: 'bad_request', code: error.error_code, description };
  }
  const cause = error instanceof HttpError ? error.error : error;
  const message =
    cause instanceof SafeHttpError || cause instanceof Error
      ? cause.message
      : 'the Bot API could not be reached';
  // A reply that is not the Bot API's JSON (a proxy's error page) lands here too.
  return { ok: false, reason: 'unavailable', description: redact(message, token) };
}
