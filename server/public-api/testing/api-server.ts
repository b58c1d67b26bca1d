import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestListener } from '@/scripts/request-listener.mjs';
import { handlePublicApiRequest } from '../fetch-adapter';
import { exposeToProductionServer } from '../production-entry';

/**
 * Serves the public API over real HTTP on 127.0.0.1 the way `npm start` does, through its
 * request listener (scripts/request-listener.mjs), with a stand-in for Next.js behind it that
 * behaves as Next.js does with next.config.mjs: a 308 for repeated slashes, the route (trailing
 * slash or not) for `/api/{x}/{y}`, the peer in X-Forwarded-For when the header is absent; the
 * route's module loads with the first call it serves. Tests speak HTTP to it like an integrator.
 */
export async function startApiServer(): Promise<{ url: string; close(): Promise<void> }> {
  const nextJs = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const rawUrl = req.url ?? '/';
    const rawPath = rawUrl.split('?')[0];
    if (/\\|\/\//.test(rawPath)) {
      const location = rawUrl.replace(rawPath, rawPath.replace(/[\\/]+/g, '/'));
      res.writeHead(308, { Location: location }).end(location);
      return;
    }
    const url = new URL(rawUrl, 'http://127.0.0.1');
    const match = /^\/api\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    exposeToProductionServer();
    req.headers['x-forwarded-for'] ??= req.socket.remoteAddress;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const body =
      chunks.length && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
    const response = await handlePublicApiRequest(
      new Request(url, { method: req.method, headers, body }),
      decodeURIComponent(match[1]),
      match[2],
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  };
  const server = http.createServer(createRequestListener(nextJs));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
export type JsonBody = Record<string, any>;

export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The answer as JSON, or `{ text }` when it is not JSON. */
  body: JsonBody;
}

/**
 * One HTTP request to the served API exactly as given: the path not normalised, only the
 * headers named (none: no Content-Type at all), optionally from a local address of choice.
 */
export function rawRequest(
  baseUrl: string,
  pathAndQuery: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    localAddress?: string;
  } = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const url = new URL(baseUrl);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: pathAndQuery,
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.localAddress,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => {
          let body: JsonBody;
          try {
            body = JSON.parse(text);
          } catch {
            body = { text };
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
