import { quoteTokens } from '@/lib/viber/callbacks';
import { SafeHttpError, type SafeResponse } from '@/server/http';
import { messengerFetch } from '../messenger-fetch';
import { viberEnv } from './env';

/**
 * Viber's REST Bot API for one bot's token (developers.viber.com/docs/api/rest-bot-api): every
 * call a POST of JSON to `<BLOCKBOT_VIBER_API_URL>/<method>` through safeFetch, the token in the
 * `X-Viber-Auth-Token` header (never in a URL or a body, so no error text carries it). Viber
 * answers HTTP 200 with its own `status` in the body (0 is success); an answer is classified the
 * way the channel acts on it.
 */

export type ViberFailure = {
  ok: false;
  /**
   * `rate_limited`: 12 (tooManyRequests); `unavailable`: a 5xx, no answer, an answer that is not
   * the API's: both held and tried again. `invalid_token`: 2. `not_subscribed`: 6 (the person
   * has not subscribed, or unsubscribed) and 5 (not a Viber user any more): the message cannot
   * reach them, never retried. `refused`: anything else (bad data, 3; missing data, 4; …).
   */
  reason: 'rate_limited' | 'unavailable' | 'invalid_token' | 'not_subscribed' | 'refused';
  status?: number;
  description: string;
};
export type ViberResult<T> = { ok: true; result: T } | ViberFailure;

/** How a connecting channel tells a failed call (server/channels/refusal.ts). */
export const VIBER_REFUSAL_CAUSES = {
  invalid_token: 'credential',
  unavailable: 'unreachable',
  rate_limited: 'unreachable',
} as const;

const viberFetch = messengerFetch('viber');

const REASONS: Record<number, ViberFailure['reason']> = {
  2: 'invalid_token',
  5: 'not_subscribed',
  6: 'not_subscribed',
  12: 'rate_limited',
};

/** How long one call may take: Viber answers at once or is in trouble. */
const TIMEOUT_MS = 15_000;

export interface ViberApi {
  call<T extends object>(method: string, body: object): Promise<ViberResult<T>>;
}

export function viberApi(token: string): ViberApi {
  return {
    async call<T extends object>(method: string, body: object): Promise<ViberResult<T>> {
      let res: SafeResponse;
      try {
        res = await viberFetch(`${viberEnv().BLOCKBOT_VIBER_API_URL}/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-viber-auth-token': token },
          body: JSON.stringify(body),
          timeoutMs: TIMEOUT_MS,
        });
      } catch (error) {
        if (!(error instanceof SafeHttpError)) throw error;
        // Only a call that may work later is held: a refused address or URL never will.
        const later = error.code === 'timeout' || error.code === 'network' || error.code === 'dns';
        return {
          ok: false,
          reason: later ? 'unavailable' : 'refused',
          description: `Viber did not answer: ${error.message}`,
        };
      }
      if (res.status >= 500 || res.status === 429)
        return { ok: false, reason: 'unavailable', description: `Viber answered HTTP ${res.status}` };
      let answer: { status?: unknown; status_message?: unknown } & Record<string, unknown>;
      try {
        answer = JSON.parse(quoteTokens(res.body));
      } catch {
        return {
          ok: false,
          reason: 'unavailable',
          description: `the Bot API's answer (HTTP ${res.status}) is not JSON`,
        };
      }
      const status = typeof answer?.status === 'number' ? answer.status : null;
      if (status === 0) return { ok: true, result: answer as T };
      if (status === null)
        return {
          ok: false,
          reason: res.status === 200 ? 'refused' : 'unavailable',
          description: `the Bot API's answer (HTTP ${res.status}) has no status`,
        };
      const message = typeof answer.status_message === 'string' ? answer.status_message : 'no message';
      return {
        ok: false,
        reason: REASONS[status] ?? 'refused',
        status,
        description: `${status} ${message}`,
      };
    },
  };
}
