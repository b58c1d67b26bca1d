import { healthAnswer, toResponse } from '@/server/health/answers';

export const dynamic = 'force-dynamic';

export function GET() {
  return toResponse(healthAnswer());
}
