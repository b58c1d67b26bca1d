import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Edge, Node } from '@xyflow/react';
import { build } from 'esbuild';
import type { BotSchema } from '../../lib/schema';

/** The bot's blocks as React Flow default nodes and its arrows as default edges. */
export function bareGraph(schema: BotSchema): { nodes: Node[]; edges: Edge[] } {
  return {
    nodes: schema.blocks.map((b) => ({ id: String(b.id), position: b.position, data: { label: b.name } })),
    edges: schema.arrows.map((a) => ({ id: `a${a.id}`, source: String(a.from), target: String(a.to) })),
  };
}

/** Bundles bare-flow.tsx for production and serves it with `graph` on 127.0.0.1 (a free port). */
export async function serveBarePage(graph: { nodes: Node[]; edges: Edge[] }) {
  const bundle = await build({
    entryPoints: [path.join(import.meta.dirname, 'bare-flow.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    outdir: 'out',
    write: false,
    logLevel: 'error',
  });
  // Bundles are cached like Next's hashed static files; the page and its data are not.
  const files = new Map<string, { type: string; body: string | Uint8Array; immutable?: boolean }>([
    [
      '/',
      {
        type: 'text/html',
        body: '<!doctype html><html><head><link rel="stylesheet" href="/bare-flow.css"></head><body style="margin:0"><div id="root"></div><script type="module" src="/bare-flow.js"></script></body></html>',
      },
    ],
    ['/graph.json', { type: 'application/json', body: JSON.stringify(graph) }],
  ]);
  for (const file of bundle.outputFiles) {
    const type = file.path.endsWith('.css') ? 'text/css' : 'text/javascript';
    files.set(`/${path.basename(file.path)}`, { type, body: file.contents, immutable: true });
  }
  const server = http.createServer((req, res) => {
    const file = files.get(req.url ?? '/');
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, {
        'content-type': file.type,
        'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-store',
      })
      .end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
