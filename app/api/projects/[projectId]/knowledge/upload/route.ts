import { knowledgeUploadRoute } from '@/server/knowledge/knowledge-http';

type Params = { params: Promise<{ projectId: string }> };

export const dynamic = 'force-dynamic';

/** A file added to the project's knowledge base (server/knowledge/knowledge-http.ts). */
export async function POST(request: Request, { params }: Params) {
  const { projectId } = await params;
  return knowledgeUploadRoute(request, projectId);
}
