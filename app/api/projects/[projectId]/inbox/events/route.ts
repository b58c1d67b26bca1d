import { inboxEvents } from '@/server/inbox/inbox-stream';

type Params = { params: Promise<{ projectId: string }> };

export const dynamic = 'force-dynamic';

/** The inbox's live events for a signed-in member of the project (server/inbox/inbox-stream.ts). */
export async function GET(request: Request, { params }: Params) {
  return inboxEvents(request, (await params).projectId);
}
