import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeApi {
  url: string;
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** A third-party API on 127.0.0.1 for block requests and requests_*: JSON, text, errors, slow and huge replies. */
export async function startFakeApi(): Promise<FakeApi> {
  const requests: FakeApi['requests'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      const json = (status: number, data: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(data));
      };
      if (path.startsWith('/json'))
        return json(200, {
          status: 'ok',
          data: {
            items: [
              { name: 'Pizza', price: 42 },
              { name: 'Tea', price: 3 },
            ],
          },
        });
      if (path.startsWith('/text')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('plain reply');
      }
      if (path.startsWith('/error')) return json(500, { error: 'boom' });
      // U+0000, which PostgreSQL text cannot hold: raw in a text reply, escaped in a JSON one.
      if (path.startsWith('/nul-text')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('bin\0ary');
      }
      if (path.startsWith('/nul-json')) return json(200, { name: 'a\0b', 'key\0': 'c' });
      // Half an emoji (a lone surrogate), which JSON spells as an escape and jsonb refuses.
      if (path.startsWith('/half-emoji-json')) return json(200, { name: 'a\ud83db' });
      // An emoji across the 10,000th character, where the run's log cuts a reply.
      if (path.startsWith('/emoji-at-cut')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end(`${'a'.repeat(9_999)}😀`);
      }
      if (path.startsWith('/echo'))
        return json(200, {
          method: req.method,
          path,
          body,
          auth: req.headers.authorization ?? null,
          type: req.headers['content-type'] ?? null,
          token: req.headers['x-token'] ?? null,
        });
      if (path.startsWith('/slow')) {
        setTimeout(() => json(200, { late: true }), 20_000).unref();
        return;
      }
      if (path.startsWith('/huge')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('x'.repeat(3 * 1024 * 1024));
      }
      json(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
