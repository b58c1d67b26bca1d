// The production server's routing (`npm start`, scripts/start.mjs), in a module of its own so the
// tests serve the API through the very same code.
import { requestIdFrom, withLogContext } from '../server/log/request-context.mjs';

// Set by server/public-api/production-entry.ts when the API's route module loads.
const publicApi = Symbol.for('blockbot.servePublicApi');
// Set by server/channels/tg/webhook.ts when the tg webhook's route module loads.
const tgWebhook = Symbol.for('blockbot.serveTgWebhook');

/** An API key (`bb_…`) as a path segment. */
const KEY_SEGMENT = /(?:^|[\\/])bb_/;
/** What canonicalKeyUrl rewrites: a backslash, a run of slashes, a trailing slash. */
const NOT_CANONICAL = /\\|\/\/|.\/$/;

/**
 * Next.js answers `/api//{key}/…` with a 308 whose Location repeats the URL, key included (and
 * cacheable, and sent on as a Referer). A URL that carries a key is served as its canonical path
 * instead: runs of slashes or backslashes as one slash, no trailing slash.
 */
export function canonicalKeyUrl(url) {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  // Already canonical (as an API call's URL almost always is): no rewrite.
  if (!KEY_SEGMENT.test(path) || !NOT_CANONICAL.test(path)) return url;
  return (
    path.replace(/[\\/]+/g, '/').replace(/(.)\/$/, '$1') + (queryStart === -1 ? '' : url.slice(queryStart))
  );
}

/**
 * Public API calls and the tg messenger's webhook updates go straight to their handlers once
 * their modules are loaded; everything else (and the first call of each, which loads it) to
 * Next.js.
 */
export function createRequestListener(handleWithNext) {
  return (req, res) => {
    // Every line logged while answering (the event, the jobs it queues, its outgoing calls)
    // carries this id; the answer names it, so a caller can quote it.
    const requestId = requestIdFrom(req.headers['x-request-id']);
    res.setHeader('X-Request-Id', requestId);
    withLogContext({ requestId }, () => {
      req.url = canonicalKeyUrl(req.url ?? '/');
      if (globalThis[publicApi]?.(req, res)) return;
      if (globalThis[tgWebhook]?.(req, res)) return;
      // Next.js keeps an X-Forwarded-For the client wrote; the peer appended to it, as a proxy
      // does, lets the route handler tell the client's address (lib/client-address.ts).
      const peer = req.socket.remoteAddress;
      const forwarded = req.headers['x-forwarded-for'];
      if (peer) req.headers['x-forwarded-for'] = forwarded ? `${forwarded}, ${peer}` : peer;
      handleWithNext(req, res);
    });
  };
}
