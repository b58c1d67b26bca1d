import { dealEvents } from '@/server/crm/deal-stream';

type Params = { params: Promise<{ projectId: string }> };

export const dynamic = 'force-dynamic';

/** The deals board's live events for a signed-in member of the project (server/crm/deal-stream.ts). */
export async function GET(request: Request, { params }: Params) {
  return dealEvents(request, (await params).projectId);
}
