import { corsHeaders, preflightHeaders } from '@/lib/cors';
import { getDb } from '@/server/db';
import { lookUpLiveKey } from '@/server/projects/api-keys';
import { type ApiReply, SECURITY_HEADERS } from './api-error';

/**
 * CORS for `/api/{key}/{action}`: the key in the path names the project, whose allowed origins
 * come with the key from the live-key cache, so a browser's call costs no extra query.
 */

/** The origins the key's project allows; none for an unknown or revoked key. */
export async function allowedOriginsOf(apiKey: string): Promise<readonly string[]> {
  const key = await lookUpLiveKey(await getDb(), apiKey);
  return key?.allowedOrigins ?? [];
}

/**
 * `OPTIONS /api/{key}/{action}`, whatever the action. Only a browser's (with an Origin) looks
 * the key up; any other OPTIONS just learns the methods.
 */
export async function answerPreflight(
  apiKey: string,
  origin: string | null,
  requestHeaders: string | null,
): Promise<ApiReply> {
  const allowed = origin ? await allowedOriginsOf(apiKey) : [];
  return {
    status: 204,
    headers: {
      ...SECURITY_HEADERS,
      Allow: 'GET, POST, OPTIONS',
      ...preflightHeaders(origin, allowed, requestHeaders),
    },
    body: '',
  };
}

/** The reply, readable by the page at `origin` when the project allows it. */
export function withCors(reply: ApiReply, origin: string | null, allowed: readonly string[]): ApiReply {
  const headers = corsHeaders(origin, allowed);
  return { ...reply, headers: { ...reply.headers, ...headers } };
}
