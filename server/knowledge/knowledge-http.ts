import { fileKind } from '@/lib/knowledge/file-kind';
import { MAX_DOCUMENT_BYTES, megabytes } from '@/lib/knowledge/limits';
import { cappedBytes } from '@/server/channels/capped-body';
import { DomainError } from '@/server/errors';
import { canManageProject } from '@/server/projects/membership';
import { domainRefusal, jsonRefusal, memberOfRequest } from '@/server/projects/request-member';
import { projectEmbedder } from './embedder';
import { queueDocument } from './index-job';

const USAGE =
  'POST /api/projects/<project id>/knowledge/upload?name=<file name>[&title=…][&chunkSize=…] with the file as the body';

/**
 * The request's body as an uploaded document's bytes, or the 413 refusing it: a declared length
 * over the cap is refused before anything is read, and a body that turns out longer is
 * refused as soon as it passes the cap, never held whole.
 */
export async function uploadedBytes(request: Request): Promise<Uint8Array | Response> {
  const bytes = await cappedBytes(request, MAX_DOCUMENT_BYTES);
  return (
    bytes ??
    jsonRefusal(
      413,
      `The file is larger than ${megabytes(MAX_DOCUMENT_BYTES)}, the most a knowledge base document may be; split it into parts.`,
      'file',
    )
  );
}

/**
 * POST /api/projects/<project>/knowledge/upload?name=…: a file (PDF, Markdown, HTML or text,
 * by its name or content type) added to the knowledge base as the body, not as a form: the
 * body is streamed against the cap. Owners and admins. Answers at once with the document
 * `indexing`; the `knowledge.index` job embeds it.
 */
export async function knowledgeUploadRoute(request: Request, rawProjectId: string): Promise<Response> {
  const found = await memberOfRequest(request, rawProjectId, USAGE);
  if (found instanceof Response) return found;
  if (!canManageProject(found.member.role))
    return jsonRefusal(403, "Only the project's owner or an admin can add documents; ask one of them.");
  const params = new URL(request.url).searchParams;
  const name = params.get('name') ?? '';
  const kind = fileKind(name, request.headers.get('content-type') ?? '');
  if (!kind)
    return jsonRefusal(
      400,
      `"${name || 'the file'}" is not a PDF, Markdown, HTML or text file; upload one of those (by its extension).`,
      'file',
    );
  const chunkSize = params.get('chunkSize');
  try {
    // Refused at once when nothing could index it; the job embeds it later (index-job.ts).
    await projectEmbedder(found.db, found.projectId);
    const bytes = await uploadedBytes(request);
    if (bytes instanceof Response) return bytes;
    const document = await queueDocument(found.db, found.projectId, {
      title: params.get('title') || name.replace(/\.[^.]+$/, ''),
      kind,
      bytes,
      chunkSize: chunkSize ? Number(chunkSize) : undefined,
    });
    return Response.json(document, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    if (error instanceof DomainError) return domainRefusal(error);
    throw error;
  }
}
