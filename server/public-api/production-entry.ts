import type { IncomingMessage, ServerResponse } from 'node:http';
import { logFor } from '@/server/log';
import { handleNodeApiRequest } from './node-adapter';

const log = logFor('api');

/**
 * The app's own routes under /api (the folders of `app/api` but `[apiKey]`): never a key.
 * production-entry.test.ts checks the list against the folders.
 */
export const APP_API_ROUTES = [
  'auth',
  'backup',
  'channels',
  'files',
  'health',
  'metrics',
  'openapi.json',
  'projects',
  'ready',
  'trpc',
];

const escaped = APP_API_ROUTES.map((r) => r.replace(/[.]/g, '\\.')).join('|');

/**
 * `/api/{key}/{action}`, whatever the key: every call with a key that is not the app's own route
 * skips Next.js's router, so a malformed key gets the very answer (headers included) a
 * well-formed unknown one gets and a prober cannot tell them apart (issue 52, item 20). What
 * else is unusual (a trailing slash) goes through the route handler, which answers the same.
 */
const PUBLIC_API_PATH = new RegExp(`^/api/(?!(?:${escaped})/)([^/?#]+)/([A-Za-z0-9_]+)(?:\\?|$)`);

/** The key as Next.js would give it to the route: percent-decoded (a broken escape stays as sent, and fails). */
function decodedKey(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The key and action of a public API call's URL, or null for any other path. */
export function publicApiCall(url: string): { key: string; action: string } | null {
  const match = PUBLIC_API_PATH.exec(url);
  return match ? { key: decodedKey(match[1]), action: match[2] } : null;
}

/** Serves `req` when it is a public API call; false leaves it to Next.js. */
export function servePublicApi(req: IncomingMessage, res: ServerResponse): boolean {
  const call = publicApiCall(req.url ?? '');
  if (!call) return false;
  handleNodeApiRequest(req, res, call.key, call.action).catch((error) => {
    log.error({ err: error }, 'could not answer');
    res.destroy();
  });
  return true;
}

const ENTRY = Symbol.for('blockbot.servePublicApi');

/**
 * Hands servePublicApi to the production server (scripts/start.mjs), which calls it before
 * Next.js's request handler. Called when the route handler's module loads, so the server uses
 * this very module instance (its database, key cache and rate limits) rather than a copy.
 */
export function exposeToProductionServer(): void {
  (globalThis as Record<symbol, unknown>)[ENTRY] = servePublicApi;
}
