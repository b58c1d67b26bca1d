import type { IncomingMessage, ServerResponse } from 'node:http';
import { KEY_PREFIX } from '@/server/projects/api-keys';
import { handleNodeApiRequest } from './node-adapter';

/**
 * `/api/{key}/{action}` with a well-formed key. Only such paths skip Next.js's router: the
 * `bb_` prefix keeps the app's own routes under /api (auth, trpc, ...) out of it, and anything
 * unusual (encoded characters, a trailing slash) goes through the route handler, which gives
 * the same answers.
 */
const PUBLIC_API_PATH = new RegExp(`^/api/(${KEY_PREFIX}[A-Za-z0-9_-]+)/([A-Za-z0-9_]+)(?:\\?|$)`);

/** Serves `req` when it is a public API call; false leaves it to Next.js. */
export function servePublicApi(req: IncomingMessage, res: ServerResponse): boolean {
  const match = PUBLIC_API_PATH.exec(req.url ?? '');
  if (!match) return false;
  handleNodeApiRequest(req, res, match[1], match[2]).catch((error) => {
    console.error('[api] could not answer:', error);
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
