import type { PlainAnswer } from '@/server/metrics/endpoint';
import { healthState } from './health-state';
import { checkReadiness } from './readiness';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** `GET /api/health`: the process answers (a liveness probe: restart it when this fails). */
export function healthAnswer(): PlainAnswer {
  const { role } = healthState();
  return { status: 200, headers: JSON_HEADERS, body: JSON.stringify({ status: 'ok', role }) };
}

/** `GET /api/ready`: 200 when this process should get traffic, 503 naming what is not ready. */
export async function readinessAnswer(): Promise<PlainAnswer> {
  const readiness = await checkReadiness();
  return {
    status: readiness.ready ? 200 : 503,
    headers: JSON_HEADERS,
    body: JSON.stringify({ status: readiness.ready ? 'ready' : 'not ready', ...readiness }),
  };
}

/** A plain answer as the Response a route handler returns. */
export const toResponse = ({ status, headers, body }: PlainAnswer): Response =>
  new Response(body, { status, headers });
