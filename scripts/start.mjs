#!/usr/bin/env node
// `npm start`: builds the app when the build is missing or older than the sources, then serves
// it with Next.js's request handler inside our own node:http server. Public API calls
// (`/api/bb_…/{action}`) skip Next.js's router and go straight to the handler module the route
// handler uses: measured under `npm run bench -- api`, Next's router alone, answering a trivial
// JSON route, stays far below the API's goal of half a bare node:http + pg server's throughput.
// The route handler still serves the first call (which loads it) and everything under `next dev`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { rootLogger } from '../server/log/create-logger.mjs';
import { createRequestListener } from './request-listener.mjs';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const nextBin = path.join(root, 'node_modules', '.bin', 'next');
const buildId = path.join(root, '.next', 'BUILD_ID');
const sourceDirs = ['app', 'components', 'lib', 'server', 'prisma'];
const sourceFiles = ['package.json', 'next.config.mjs', 'instrumentation.ts', 'postcss.config.mjs'];
// The app's own logger (server/log): the same instance serves its lines once Next.js has loaded it.
const log = rootLogger().child({ area: 'server' });

function newestMtime(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  if (entry.endsWith(`${path.sep}generated`)) return 0;
  return Math.max(0, ...fs.readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

function buildIsCurrent() {
  if (!fs.existsSync(buildId)) return false;
  const built = fs.statSync(buildId).mtimeMs;
  const sources = Math.max(...[...sourceDirs, ...sourceFiles].map((p) => newestMtime(path.join(root, p))));
  return sources <= built;
}

if (!buildIsCurrent()) {
  log.info('building the app (once, or after a change)…');
  const result = spawnSync(nextBin, ['build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const { values: args } = parseArgs({
  options: { port: { type: 'string', short: 'p' }, hostname: { type: 'string', short: 'H' } },
});
const port = Number(args.port ?? process.env.PORT ?? 3000);
// The base URL and sign-in's trusted origins default to this port (server/config/env.ts).
process.env.PORT = String(port);
const hostname = args.hostname;
process.env.NODE_ENV = 'production';

const { default: next } = await import('next');
const app = next({ dev: false, dir: root, port, hostname });
// Runs instrumentation.ts: configuration, database, migrations, the inline job worker.
await app.prepare();
const server = http.createServer(createRequestListener(app.getRequestHandler()));
server.on('error', (error) => {
  log.fatal(`Blockbot could not start: cannot listen on port ${port} (${error.message}).`);
  process.exit(1);
});
// On SIGTERM or SIGINT the runtime (server/runtime/runtime.ts) calls this before it closes the
// database: no new connections, and requests already in flight get their answers (a rolling
// deploy loses none), for at most 10 s.
globalThis[Symbol.for('blockbot.stopHttp')] = () =>
  new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, 10_000);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
server.listen(port, hostname, async () => {
  // Requests wait for instrumentation.ts (the database, migrations, the job worker) and load
  // their route's module on first use: the first page is asked for here, so that "listening"
  // is printed once a page is served, not seconds before.
  const status = await firstPage(server.address()).catch((error) => error.message);
  const warning = status === 200 ? '' : ` (but the first page answered ${status})`;
  log.info(`listening on http://${hostname ?? 'localhost'}:${port}${warning}`);
});

/** `GET /` on this server, following its redirect (to the sign-in page): the final status. */
async function firstPage({ address, family, port: listening }) {
  const host = ['::', '0.0.0.0'].includes(address)
    ? '127.0.0.1'
    : family === 'IPv6'
      ? `[${address}]`
      : address;
  let url = new URL(`http://${host}:${listening}/`);
  for (let hop = 0; hop < 3; hop++) {
    const response = await new Promise((resolve, reject) => {
      http.get(url, (res) => res.resume().on('end', () => resolve(res))).on('error', reject); /* own server */
    });
    const location = response.headers.location;
    if (response.statusCode < 300 || response.statusCode >= 400 || !location) return response.statusCode;
    url = new URL(location, url);
  }
  return 'too many redirects';
}
