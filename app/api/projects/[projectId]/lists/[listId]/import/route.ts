import { listImportRoute } from '@/server/contacts/list-http';

type Params = { params: Promise<{ projectId: string; listId: string }> };

export const dynamic = 'force-dynamic';

/** A list's members from a CSV: a preview, or with ?commit=1 the import (server/contacts/list-http.ts). */
export async function POST(request: Request, { params }: Params) {
  const { projectId, listId } = await params;
  return listImportRoute(request, projectId, listId);
}
