import type { SafeFetchInit } from './safe-fetch';

/** A JSON API request's init: the body as JSON with its content type, or none when `body` is undefined. */
export function jsonInit(method: string, headers: Record<string, string>, body?: unknown): SafeFetchInit {
  if (body === undefined) return { method, headers };
  return { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
