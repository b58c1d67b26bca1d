import { getSessionFromHeaders } from '@/server/auth/auth';
import { getDb } from '@/server/db';
import { DomainError, type DomainErrorCode } from '@/server/errors';
import { requireMembership } from './membership';

/** A route handler's refusal: `{ error, field? }`, never cached. */
const refusal = (status: number, message: string, field?: string) =>
  Response.json(
    { error: message, ...(field && { field }) },
    { status, headers: { 'Cache-Control': 'no-store' } },
  );

const STATUS_OF: Record<DomainErrorCode, number> = {
  invalid: 400,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  limit: 413,
  plan: 402,
};

/** A domain error as a route handler's refusal, with the field it names. */
export const domainRefusal = (error: DomainError) =>
  refusal(STATUS_OF[error.code], error.message, error.field);

/**
 * The signed-in member of the project a route handler's request names (streams, downloads:
 * what tRPC cannot serve), or the answer that refuses it: 400 for an address that names no
 * project, 401 without a session, 404 for a project the user is not a member of.
 */
export async function memberOfRequest(request: Request, rawProjectId: string, usage: string) {
  const projectId = Number(rawProjectId);
  if (!Number.isSafeInteger(projectId) || projectId <= 0) return refusal(400, `Expected ${usage}.`);
  const session = await getSessionFromHeaders(request.headers);
  if (!session) return refusal(401, 'Sign in to continue.');
  const db = await getDb();
  try {
    const member = await requireMembership(db, session.user.id, projectId);
    return { db, projectId, member };
  } catch (error) {
    if (error instanceof DomainError) return refusal(404, error.message);
    throw error;
  }
}

export { refusal as jsonRefusal };
