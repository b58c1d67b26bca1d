import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerApiRequest } from './handle-request';

/**
 * The public API for a node:http request, as the production server (scripts/start.mjs) hands
 * it over without going through Next.js's router: no Fetch Request or Response is built.
 */
export async function handleNodeApiRequest(
  req: IncomingMessage,
  res: ServerResponse,
  apiKey: string,
  action: string,
): Promise<void> {
  const url = req.url ?? '';
  const queryStart = url.indexOf('?');
  const reply = await answerApiRequest(
    {
      method: req.method ?? 'GET',
      query: queryStart === -1 ? '' : url.slice(queryStart + 1),
      contentType: req.headers['content-type'] ?? null,
      contentLength: req.headers['content-length'] ?? null,
      // An early stop (a body over the cap) must leave the socket alone, so the 413 still gets out.
      body: req.iterator({ destroyOnReturn: false }),
      origin: req.headers.origin ?? null,
      requestedHeaders: req.headers['access-control-request-headers'] ?? null,
      addressChain: [
        ...[req.headers['x-forwarded-for'] ?? []].flat().flatMap((header) => header.split(',')),
        req.socket.remoteAddress ?? '',
      ],
    },
    apiKey,
    action,
  );
  const head = { ...reply.headers, 'Content-Length': Buffer.byteLength(reply.body) };
  if (req.complete) {
    // With its length known, Node sends the head and the body in one write.
    res.writeHead(reply.status, head).end(reply.body);
    return;
  }
  // A body not read to its end (refused as too large, or before it was read) is not waited for:
  // the connection closes after the answer. Closed at once, with data still coming in, it would be
  // reset, and a client still sending would lose the answer to a broken pipe. So the answer goes
  // out first, the rest of the body is read and dropped, then the connection closes.
  res.shouldKeepAlive = false;
  res.writeHead(reply.status, head).write(reply.body);
  await drain(req, LINGER_MS);
  res.end();
}

/** How long a refused body is read and dropped after the answer, at most (nginx's lingering_time). */
const LINGER_MS = 30_000;

/** Reads the rest of the request's body and drops it, until it ends, the client goes, or `ms` pass. */
function drain(req: IncomingMessage, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(finish, ms);
    function finish() {
      clearTimeout(timer);
      req.off('end', finish).off('close', finish);
      resolve();
    }
    req.on('end', finish).on('close', finish);
    req.resume();
  });
}
