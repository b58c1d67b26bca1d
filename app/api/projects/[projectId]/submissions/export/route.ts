import { submissionsCsv } from '@/server/contacts/submission-export';

type Params = { params: Promise<{ projectId: string }> };

export const dynamic = 'force-dynamic';

/** A red or yellow block's submissions as CSV (`?blockId=&from=&to=`), for a member of the project. */
export async function GET(request: Request, { params }: Params) {
  return submissionsCsv(request, (await params).projectId);
}
