import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Answers a node:http request that the production server (scripts/start.mjs) served without
 * Next.js (the public API, the messengers' webhooks): no Fetch Response is built. A promise only
 * while a refused body is drained (a hot path's answer makes none).
 */
export function sendNodeReply(
  req: IncomingMessage,
  res: ServerResponse,
  reply: { status: number; headers: Record<string, string>; body: string },
): Promise<void> | undefined {
  // The length first: in V8 a literal that starts with a spread adds later properties slowly.
  const head = { 'Content-Length': Buffer.byteLength(reply.body), ...reply.headers };
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
  return drain(req, LINGER_MS).then(() => void res.end());
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
