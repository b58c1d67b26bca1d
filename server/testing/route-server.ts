import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

/** A Next.js route handler, whatever its params (they come from the pattern's named groups). */
type RouteHandler = (request: Request, context: never) => Promise<Response> | Response;

export interface Route {
  method: string;
  /** Matched against the path; its named groups are the handler's params (URL-decoded). */
  pattern: RegExp;
  handler: RouteHandler;
  /** A group that is a catch-all segment (`[...path]`): its param is its parts, split at `/`, each decoded. */
  catchAll?: string;
}

export interface RouteServer {
  url: string;
  close(): void;
}

/**
 * Route handlers served over real HTTP as Next.js hands them a Request: the body streamed in,
 * the answer streamed out (a live stream stays open), the request aborted when the client goes
 * away. No route: 404; a path of a route with another method: 405.
 */
export async function serveRoutes(routes: readonly Route[]): Promise<RouteServer> {
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const matching = routes.filter((r) => r.pattern.test(path));
    const route = matching.find((r) => r.method === req.method);
    if (!route) {
      res.writeHead(matching.length ? 405 : 404).end();
      return;
    }
    const params = Object.fromEntries(
      Object.entries(route.pattern.exec(path)?.groups ?? {}).flatMap(([k, v]) =>
        // An optional group that did not take part is no param.
        v === undefined
          ? []
          : [[k, k === route.catchAll ? v.split('/').map(decodeURIComponent) : decodeURIComponent(v)]],
      ),
    );
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS';
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
      signal: aborted.signal,
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit);
    const response = await route.handler(request, { params: Promise.resolve(params) } as never);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    aborted.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}));
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } catch (error) {
      // The client went away; or the answer failed midway, and the connection is cut, as
      // Next.js does, so the client sees it was not whole.
      if (!aborted.signal.aborted) res.destroy(error as Error);
      return;
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
