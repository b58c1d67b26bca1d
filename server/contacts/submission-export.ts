import { csvResponse } from '@/server/downloads/csv-response';
import { DomainError } from '@/server/errors';
import { domainRefusal, jsonRefusal, memberOfRequest } from '@/server/projects/request-member';
import { requireSubmissionBlock, submissionExportRows, submissionRangeInput } from './submission-listing';

const USAGE =
  '/api/projects/<project id>/submissions/export?blockId=<block id>[&from=YYYY-MM-DD][&to=YYYY-MM-DD]';

/** The CSV download of a block's submissions in a date range, for any member of the project. */
export async function submissionsCsv(request: Request, rawProjectId: string): Promise<Response> {
  const member = await memberOfRequest(request, rawProjectId, USAGE);
  if (member instanceof Response) return member;
  const { db, projectId } = member;
  const query = new URL(request.url).searchParams;
  const range = submissionRangeInput.safeParse({
    blockId: Number(query.get('blockId')),
    from: query.get('from') || undefined,
    to: query.get('to') || undefined,
  });
  if (!range.success) {
    const issue = range.error.issues[0];
    const field = issue.path.join('.') || 'query';
    return jsonRefusal(400, `${field}: ${issue.message}. Expected ${USAGE}.`);
  }
  try {
    await requireSubmissionBlock(db, projectId, range.data.blockId);
  } catch (error) {
    if (error instanceof DomainError) return domainRefusal(error);
    throw error;
  }
  const { blockId, from, to } = range.data;
  const name = `submissions-block-${blockId}${from ? `-from-${from}` : ''}${to ? `-to-${to}` : ''}.csv`;
  return csvResponse(name, submissionExportRows(db, projectId, range.data));
}
