import { readinessAnswer, toResponse } from '@/server/health/answers';

export const dynamic = 'force-dynamic';

export async function GET() {
  return toResponse(await readinessAnswer());
}
