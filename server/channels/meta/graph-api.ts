import { SafeHttpError } from '@/server/http';
import { messengerFetch } from '../messenger-fetch';

/**
 * Meta's Graph API (the WhatsApp Cloud API, the Instagram messaging API) for one token at one
 * root (each channel's: graph.facebook.com or graph.instagram.com, or a fake's), every request
 * through safeFetch with the access token as a Bearer header (never in a URL, so no error text
 * carries it). An answer is classified the way the Meta channels act on it.
 */

/** What a call came to, in the cases the channel treats differently. */
export type GraphResult<T> =
  | { ok: true; result: T }
  | {
      ok: false;
      /**
       * `rate_limited`: the number's throughput (130429), the pair rate with one user (131056),
       * or Meta's throttling of the app, the account or user, the Page (4, 17, 32, 613, 341, as
       * its rate-limiting and error-handling pages list them; 80007): tried again after a pause.
       * `unavailable`: a 5xx, a network error, 131000 or an answer that is not the API's: tried
       * again too.
       * `invalid_token`: 190 (expired or revoked). `refused`: anything else (bad parameters,
       * the window, a template's mismatch), never tried again.
       */
      reason: 'rate_limited' | 'unavailable' | 'invalid_token' | 'refused';
      code?: number;
      description: string;
    };

/** How a connecting channel tells a failed Graph API call (server/channels/refusal.ts). */
export const GRAPH_REFUSAL_CAUSES = {
  invalid_token: 'credential',
  unavailable: 'unreachable',
  rate_limited: 'unreachable',
} as const;

const RATE_LIMIT_CODES = new Set([4, 17, 32, 341, 613, 80007, 130429, 131056]);
const TEMPORARY_CODES = new Set([1, 2, 131000, 131016]);

interface GraphError {
  message?: string;
  code?: number;
  error_subcode?: number;
  error_data?: { details?: string };
}

export interface GraphApi {
  post<T>(path: string, body: unknown): Promise<GraphResult<T>>;
  get<T>(path: string): Promise<GraphResult<T>>;
  /** A media file's bytes from the address the API gave (it needs the token too). */
  download(url: string, maxBytes: number): Promise<GraphResult<{ bytes: Uint8Array; type: string }>>;
}

/** `channel`: the kind whose API this is (its answers are counted under it). */
export function graphApi(token: string, root: string, channel: string): GraphApi {
  const graphFetch = messengerFetch(channel);
  const headers = { authorization: `Bearer ${token}` };
  async function request<T>(method: string, path: string, body?: unknown): Promise<GraphResult<T>> {
    try {
      const res = await graphFetch(`${root}/${path.replace(/^\/+/, '')}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return answerOf<T>(res.status, res.body);
    } catch (error) {
      return unavailable(error);
    }
  }
  return {
    post: (path, body) => request('POST', path, body),
    get: (path) => request('GET', path),
    async download(url, maxBytes) {
      try {
        const res = await graphFetch(url, { headers, maxBytes });
        if (res.status !== 200) return answerOf(res.status, res.body);
        return { ok: true, result: { bytes: res.bytes, type: res.headers['content-type'] ?? '' } };
      } catch (error) {
        return unavailable(error);
      }
    },
  };
}

function unavailable(error: unknown): GraphResult<never> {
  if (error instanceof SafeHttpError) return { ok: false, reason: 'unavailable', description: error.message };
  throw error;
}

/** An answer's JSON: the result on a 2xx, else its error classified. */
function answerOf<T>(status: number, text: string): GraphResult<T> {
  let json: { error?: GraphError } | undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (status >= 200 && status < 300 && json && !json.error) return { ok: true, result: json as T };
  const error = json?.error;
  if (!error || typeof error.code !== 'number')
    return {
      ok: false,
      reason: status >= 500 || status === 429 ? 'unavailable' : 'refused',
      description: `HTTP ${status}: the answer was not the Graph API's (${text.slice(0, 120)})`,
    };
  const details = error.error_data?.details;
  const description = `${error.code} ${error.message ?? 'error'}${details && details !== error.message ? `: ${details}` : ''}`;
  const reason =
    error.code === 190
      ? 'invalid_token'
      : RATE_LIMIT_CODES.has(error.code)
        ? 'rate_limited'
        : TEMPORARY_CODES.has(error.code) || status >= 500
          ? 'unavailable'
          : 'refused';
  return { ok: false, reason, code: error.code, description };
}
