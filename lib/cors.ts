/**
 * CORS for the public API: which web pages may read its answers. A project lists its allowed
 * origins (`https://shop.example`, or `*` for every site); none means no browser access.
 */

export const ANY_ORIGIN = '*';
export const MAX_ALLOWED_ORIGINS = 50;
/** Browsers cache a preflight's answer this long (Chromium caps it at 2 h). */
export const PREFLIGHT_MAX_AGE_S = 600;
/** Request headers a page may send beyond the CORS-safelisted ones: a JSON body needs Content-Type. */
const ALLOWED_REQUEST_HEADERS = new Set(['content-type', 'accept', 'accept-language', 'content-language']);

/** One entry of the setting, as the project's managers write it: the origin it allows, or why not. */
export function parseAllowedOrigin(text: string): { origin: string } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === ANY_ORIGIN) return { origin: ANY_ORIGIN };
  const example = 'write it as scheme and host, with a port if needed, e.g. https://shop.example';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { error: `"${trimmed}" is not an origin: ${example}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { error: `"${trimmed}" must start with https:// or http://` };
  }
  // URL.origin drops a path, so compare what was written: a lone trailing slash is harmless.
  if (url.username || url.password || url.search || url.hash || !/^[a-z]+:\/\/[^/?#]+\/?$/i.test(trimmed)) {
    return { error: `"${trimmed}" has more than an origin (a path, query or user): ${example}` };
  }
  return { origin: url.origin };
}

/** The headers that let the page at `origin` read an answer; none when the origin is not allowed. */
export function corsHeaders(origin: string | null, allowed: readonly string[]): Record<string, string> {
  if (!origin || allowed.length === 0) return {};
  if (allowed.includes(ANY_ORIGIN)) {
    return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Retry-After' };
  }
  if (!allowed.includes(origin)) return { Vary: 'Origin' };
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': 'Retry-After',
    Vary: 'Origin',
  };
}

/**
 * The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`): the methods and
 * the requested headers the API takes, for an allowed origin only.
 */
export function preflightHeaders(
  origin: string | null,
  allowed: readonly string[],
  requestedHeaders: string | null,
): Record<string, string> {
  const headers = corsHeaders(origin, allowed);
  if (!headers['Access-Control-Allow-Origin']) return headers;
  const asked = (requestedHeaders ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => ALLOWED_REQUEST_HEADERS.has(h));
  return {
    ...headers,
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    ...(asked.length ? { 'Access-Control-Allow-Headers': asked.join(', ') } : {}),
    'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
  };
}
