import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendNodeReply } from '@/server/node-http/reply';
import { answerApiRequest } from './handle-request';
import type { ApiRequest } from './request-params';

/**
 * An API request read off a node:http request. Its body and its caller's address chain are made
 * only when read (a GET's body never is, the address only for a key that is not valid): getters
 * of a class, as an object literal with getters takes V8's slow path to be made (0.8 µs a call).
 */
class NodeApiRequest implements ApiRequest {
  readonly method: string;
  readonly query: string;
  readonly contentType: string | null;
  readonly contentLength: string | null;
  readonly origin: string | null;
  readonly requestedHeaders: string | null;
  readonly #req: IncomingMessage;

  constructor(req: IncomingMessage) {
    const url = req.url ?? '';
    const queryStart = url.indexOf('?');
    const { headers } = req;
    this.#req = req;
    this.method = req.method ?? 'GET';
    this.query = queryStart === -1 ? '' : url.slice(queryStart + 1);
    this.contentType = headers['content-type'] ?? null;
    this.contentLength = headers['content-length'] ?? null;
    this.origin = headers.origin ?? null;
    this.requestedHeaders = headers['access-control-request-headers'] ?? null;
  }

  // An early stop (a body over the cap) must leave the socket alone, so the 413 still gets out.
  get body() {
    return this.#req.iterator({ destroyOnReturn: false });
  }

  get addressChain() {
    const req = this.#req;
    return [
      ...[req.headers['x-forwarded-for'] ?? []].flat().flatMap((header) => header.split(',')),
      req.socket.remoteAddress ?? '',
    ];
  }
}

/**
 * The public API for a node:http request, as the production server (scripts/start.mjs) hands
 * it over without going through Next.js's router: no Fetch Request or Response is built.
 */
export function handleNodeApiRequest(
  req: IncomingMessage,
  res: ServerResponse,
  apiKey: string,
  action: string,
): Promise<void> {
  return answerApiRequest(new NodeApiRequest(req), apiKey, action).then((reply) =>
    sendNodeReply(req, res, reply),
  );
}
