import { createHash, timingSafeEqual } from 'node:crypto';
import { getEnv } from '@/server/config/env';
import { getDb } from '@/server/db';
import { refreshBacklog } from './backlog';
import { metrics } from './metrics';

export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /api/metrics` (the web server's route and the worker's port): Prometheus's text format,
 * only with `Authorization: Bearer <BLOCKBOT_METRICS_TOKEN>`; with no token set, nothing is
 * served (404), as if the endpoint did not exist.
 */
export async function metricsAnswer(authorization: string | null | undefined): Promise<PlainAnswer> {
  const token = getEnv().BLOCKBOT_METRICS_TOKEN;
  if (!token) return plain(404, 'Metrics are off: set BLOCKBOT_METRICS_TOKEN to serve them.\n');
  const given = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
  if (!timingSafeEqual(digest(given), digest(token))) {
    return {
      ...plain(401, 'Send the metrics token as Authorization: Bearer <BLOCKBOT_METRICS_TOKEN>.\n'),
      headers: { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' },
    };
  }
  const m = metrics();
  // A scrape while the database is away still gets the process's own metrics.
  await getDb()
    .then((db) => refreshBacklog(db, m))
    .catch(() => {});
  return {
    status: 200,
    headers: { 'content-type': m.registry.contentType, 'cache-control': 'no-store' },
    body: await m.registry.metrics(),
  };
}

function plain(status: number, body: string): PlainAnswer {
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    body,
  };
}
