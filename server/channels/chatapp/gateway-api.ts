import { SafeHttpError } from '@/server/http';
import { messengerFetch } from '../messenger-fetch';

/**
 * A WhatsApp Web session gateway's HTTP API (WAHA) for one session, every request through
 * safeFetch with the API key in the `X-Api-Key` header (never in a URL). A self-hosted gateway
 * on a private address is reached once the self-hoster allows it (BLOCKBOT_HTTP_ALLOW_HOSTS).
 */

export type GatewayResult<T> =
  | { ok: true; status: number; result: T }
  | {
      ok: false;
      /**
       * `unavailable`: a 5xx or a network error (tried again); `unauthorized`: a 401, the API key;
       * `not_ready`: a 422 because the session is not in the state the call needs (not paired);
       * `refused`: anything else, with the gateway's own words.
       */
      reason: 'unavailable' | 'unauthorized' | 'not_ready' | 'refused';
      status?: number;
      description: string;
    };

export interface GatewayApi {
  get<T>(path: string, accept?: string): Promise<GatewayResult<T>>;
  post<T>(path: string, body: unknown): Promise<GatewayResult<T>>;
  put<T>(path: string, body: unknown): Promise<GatewayResult<T>>;
  delete(path: string): Promise<GatewayResult<unknown>>;
  /** A file the gateway holds (a client's media), by the address its webhook gave. */
  download(url: string, maxBytes: number): Promise<GatewayResult<{ bytes: Uint8Array; type: string }>>;
}

const gatewayFetch = messengerFetch('chatapp');

export function gatewayApi(baseUrl: string, apiKey: string): GatewayApi {
  const root = baseUrl.replace(/\/+$/, '');
  const headers = { 'x-api-key': apiKey };
  async function request<T>(method: string, path: string, body?: unknown, accept?: string) {
    try {
      const res = await gatewayFetch(`${root}${path}`, {
        method,
        headers: {
          ...headers,
          accept: accept ?? 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return answerOf<T>(res.status, res.body);
    } catch (error) {
      return unavailable(error);
    }
  }
  return {
    get: (path, accept) => request('GET', path, undefined, accept),
    post: (path, body) => request('POST', path, body),
    put: (path, body) => request('PUT', path, body),
    delete: (path) => request('DELETE', path),
    async download(url, maxBytes) {
      // Only the gateway's own files get the key: an address elsewhere is refused, not fetched.
      if (!url.startsWith(`${root}/`))
        return {
          ok: false,
          reason: 'refused',
          description: `the file's address ${url} is not on the gateway ${root}`,
        };
      try {
        const res = await gatewayFetch(url, { headers, maxBytes });
        if (res.status !== 200) return answerOf(res.status, res.body);
        return {
          ok: true,
          status: 200,
          result: { bytes: res.bytes, type: res.headers['content-type'] ?? '' },
        };
      } catch (error) {
        return unavailable(error);
      }
    },
  };
}

function unavailable(error: unknown): GatewayResult<never> {
  if (error instanceof SafeHttpError) return { ok: false, reason: 'unavailable', description: error.message };
  throw error;
}

/** The gateway's answer: its JSON on a 2xx (an empty body is `{}`), else why, in its words. */
function answerOf<T>(status: number, text: string): GatewayResult<T> {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = undefined;
  }
  if (status >= 200 && status < 300 && json !== undefined) return { ok: true, status, result: json as T };
  const said = wordsOf(json) ?? text.slice(0, 200);
  const description = `HTTP ${status}: ${said || 'no answer body'}`;
  if (status >= 500 || status === 429 || json === undefined)
    return {
      ok: false,
      reason: status >= 200 && status < 300 ? 'refused' : 'unavailable',
      status,
      description,
    };
  if (status === 401 || status === 403) return { ok: false, reason: 'unauthorized', status, description };
  if (status === 422 && /status is not as expected/i.test(said))
    return { ok: false, reason: 'not_ready', status, description };
  return { ok: false, reason: 'refused', status, description };
}

/** NestJS errors say it in `message` (a string or a list) or `error`. */
function wordsOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const { message, error, status } = json as { message?: unknown; error?: unknown; status?: unknown };
  if (Array.isArray(message)) return message.join('; ');
  if (typeof error === 'string' && typeof status === 'string') return `${error} (the session is ${status})`;
  if (typeof message === 'string') return message;
  if (typeof error === 'string') return error;
  return undefined;
}
