import { clientsExportRoute } from '@/server/contacts/list-http';

type Params = { params: Promise<{ projectId: string }> };

export const dynamic = 'force-dynamic';

/** The clients of a Clients-tab filter (or a list's members) as CSV (server/contacts/list-http.ts). */
export async function GET(request: Request, { params }: Params) {
  return clientsExportRoute(request, (await params).projectId);
}
