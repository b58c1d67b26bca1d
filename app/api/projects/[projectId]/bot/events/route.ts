import { draftEvents } from '@/server/projects/draft-stream';

type Params = { params: Promise<{ projectId: string }> };

export const dynamic = 'force-dynamic';

/** The builder's live events for a signed-in member of the project (server/projects/draft-stream.ts). */
export async function GET(request: Request, { params }: Params) {
  return draftEvents(request, (await params).projectId);
}
