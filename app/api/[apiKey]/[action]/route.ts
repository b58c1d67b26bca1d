import { handlePublicApiRequest } from '@/server/public-api/handle-request';

type Params = { params: Promise<{ apiKey: string; action: string }> };

async function handler(req: Request, { params }: Params) {
  const { apiKey, action } = await params;
  return handlePublicApiRequest(req, apiKey, action);
}

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
