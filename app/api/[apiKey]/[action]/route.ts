import { handlePublicApiRequest } from '@/server/public-api/fetch-adapter';
import { exposeToProductionServer } from '@/server/public-api/production-entry';

// `npm start` serves later API calls straight from node:http (scripts/start.mjs); this route
// answers the first one, and every call under `next dev` and `next start`.
exposeToProductionServer();

type Params = { params: Promise<{ apiKey: string; action: string }> };

async function handler(req: Request, { params }: Params) {
  const { apiKey, action } = await params;
  return handlePublicApiRequest(req, apiKey, action);
}

// OPTIONS too: a browser's preflight gets the project's CORS answer, not Next.js's default one.
export {
  handler as GET,
  handler as POST,
  handler as PUT,
  handler as PATCH,
  handler as DELETE,
  handler as OPTIONS,
};
