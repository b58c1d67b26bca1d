import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { GET, OPTIONS, POST } from '@/app/api/channels/widget/[channel]/[action]/route';

const handlers: Record<string, typeof GET> = { GET, POST, OPTIONS };

/**
 * The widget's route served over real HTTP as Next.js hands it a Request: the body streamed
 * in, the answer streamed out (the live stream stays open), the request aborted when the
 * browser goes away. `address` stands for the proxy's X-Forwarded-For, so tests can be several
 * visitors' addresses.
 */
export async function serveWidgetRoute(): Promise<{ url: string; close(): void }> {
  const server = http.createServer(async (req, res) => {
    const match = /^\/api\/channels\/widget\/([^/]+)\/([^/?]+)/.exec(req.url ?? '');
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    const hasBody = req.method === 'POST';
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
      signal: aborted.signal,
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit);
    const handler = handlers[req.method ?? ''];
    if (!handler) {
      res.writeHead(405).end();
      return;
    }
    const response = await handler(request, {
      params: Promise.resolve({ channel: match[1], action: match[2] }),
    });
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
    } catch {
      // The visitor went away.
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
