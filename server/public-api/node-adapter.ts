import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendNodeReply } from '@/server/node-http/reply';
import { answerApiRequest } from './handle-request';

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
  const url = req.url ?? '';
  const queryStart = url.indexOf('?');
  return answerApiRequest(
    {
      method: req.method ?? 'GET',
      query: queryStart === -1 ? '' : url.slice(queryStart + 1),
      contentType: req.headers['content-type'] ?? null,
      contentLength: req.headers['content-length'] ?? null,
      // An early stop (a body over the cap) must leave the socket alone, so the 413 still gets out.
      // A GET's body is never read, and the address only for a key that is not valid: neither is
      // made for every call.
      get body() {
        return req.iterator({ destroyOnReturn: false });
      },
      origin: req.headers.origin ?? null,
      requestedHeaders: req.headers['access-control-request-headers'] ?? null,
      get addressChain() {
        return [
          ...[req.headers['x-forwarded-for'] ?? []].flat().flatMap((header) => header.split(',')),
          req.socket.remoteAddress ?? '',
        ];
      },
    },
    apiKey,
    action,
  ).then((reply) => sendNodeReply(req, res, reply));
}
