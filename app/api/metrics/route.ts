import { toResponse } from '@/server/health/answers';
import { metricsAnswer } from '@/server/metrics/endpoint';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return toResponse(await metricsAnswer(request.headers.get('authorization')));
}
