import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { handlePublicApiRequest } from '../fetch-adapter';
import { servePublicApi } from '../production-entry';

/**
 * Serves the public API over real HTTP on 127.0.0.1 the way `npm start` does: node:http
 * requests go to servePublicApi, and what it leaves (keys that are not well-formed) to the
 * route handler's Fetch adapter, as Next.js would call it. Tests speak HTTP to it like an
 * integrator.
 */
export async function startApiServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    if (servePublicApi(req, res)) return;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const match = /^\/api\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (!match) {
      res.writeHead(404).end();
      return;
    }
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
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
