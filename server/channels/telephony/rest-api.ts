import { retryAfterSeconds } from '@/lib/retry-after';
import { jsonInit, SafeHttpError } from '@/server/http';
import { messengerFetch } from '../messenger-fetch';

/**
 * The jambonz REST API of one account (docs.jambonz.org, "REST API"), every request through
 * safeFetch with the API key as a Bearer header. Errors come as `{msg}` with 400, 401, 404,
 * 422, 480 (no feature server free to place a call) or 500, or as a bare text: a 500's
 * "Internal Server Error", a rate limit's 429 "Too many requests, please try again later."
 * with `Retry-After` in seconds (jambonz-api-server's express-rate-limit).
 */

export type JambonzResult<T> =
  | { ok: true; result: T }
  | {
      ok: false;
      status: number;
      reason: 'unauthorized' | 'not_found' | 'refused' | 'unavailable';
      description: string;
      /** How long the server asked to wait (a 429's `Retry-After`). */
      retryAfterMs?: number;
    };

export interface JambonzApi {
  get<T>(path: string): Promise<JambonzResult<T>>;
  post<T>(path: string, body: unknown): Promise<JambonzResult<T>>;
  put<T>(path: string, body: unknown): Promise<JambonzResult<T>>;
  /** A GET whose answer is a file (a recording): its bytes, at most `maxBytes`. */
  download(
    path: string,
    maxBytes: number,
  ): Promise<JambonzResult<{ bytes: Uint8Array; contentType: string }>>;
}

const jambonzFetch = messengerFetch('telephony');

export function jambonzApi(apiUrl: string, apiKey: string): JambonzApi {
  const root = `${apiUrl.replace(/\/+$/, '')}/v1`;
  const headers = { authorization: `Bearer ${apiKey}` };
  const urlOf = (path: string) => `${root}/${path.replace(/^\/+/, '')}`;
  const request = <T>(method: string, path: string, body?: unknown) =>
    reachable(async () => {
      const res = await jambonzFetch(urlOf(path), jsonInit(method, headers, body));
      return answerOf<T>(res.status, res.body, res.headers);
    });
  return {
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body),
    put: (path, body) => request('PUT', path, body),
    download: (path, maxBytes) =>
      reachable(async () => {
        const res = await jambonzFetch(urlOf(path), { method: 'GET', headers, maxBytes, timeoutMs: 60_000 });
        if (res.status < 200 || res.status >= 300) return answerOf(res.status, res.body, res.headers);
        const contentType = res.headers['content-type'] ?? 'application/octet-stream';
        return { ok: true, result: { bytes: res.bytes, contentType } };
      }),
  };
}

/** A request's answer, or `unavailable` when the server could not be reached or read (server/http's errors). */
async function reachable<T>(work: () => Promise<JambonzResult<T>>): Promise<JambonzResult<T>> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SafeHttpError)
      return { ok: false, status: 0, reason: 'unavailable', description: error.message };
    throw error;
  }
}

function answerOf<T>(status: number, text: string, headers: Record<string, string>): JambonzResult<T> {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = undefined;
  }
  if (status >= 200 && status < 300) return { ok: true, result: (json ?? {}) as T };
  const plain = json === undefined && !/^\s*</.test(text) ? text.trim().slice(0, 200) : '';
  const msg =
    json && typeof json === 'object' && 'msg' in json && typeof json.msg === 'string'
      ? json.msg
      : plain || `the answer was not jambonz's (${text.slice(0, 120)})`;
  const description = `HTTP ${status}: ${msg}`;
  const reason =
    status === 401 || status === 403
      ? 'unauthorized'
      : status === 404
        ? 'not_found'
        : status === 429 || status === 480 || status >= 500
          ? 'unavailable'
          : 'refused';
  const retryAfter = status === 429 ? retryAfterSeconds(headers['retry-after'], new Date()) : undefined;
  return {
    ok: false,
    status,
    reason,
    description,
    ...(retryAfter !== undefined && { retryAfterMs: retryAfter * 1000 }),
  };
}
