import http from 'node:http';
import { metricsAnswer, type PlainAnswer } from '@/server/metrics/endpoint';
import { healthAnswer, readinessAnswer } from './answers';

const ROUTES: Record<string, (req: http.IncomingMessage) => PlainAnswer | Promise<PlainAnswer>> = {
  '/api/health': () => healthAnswer(),
  '/api/ready': () => readinessAnswer(),
  '/api/metrics': (req) => metricsAnswer(req.headers.authorization),
};

/**
 * `npm run worker`'s own port (BLOCKBOT_WORKER_PORT): the same health, readiness and metrics
 * answers as the web server's routes, for an orchestrator's probes and Prometheus. It stays
 * up through the shutdown (ready answering 503) until the process exits.
 */
export function serveWorkerEndpoints(port: number): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    const route =
      req.method === 'GET' ? ROUTES[new URL(req.url ?? '/', 'http://worker').pathname] : undefined;
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    const { status, headers, body } = await route(req);
    res.writeHead(status, headers).end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}
