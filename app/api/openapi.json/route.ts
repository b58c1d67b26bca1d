import { buildOpenApiDocument } from '@/server/public-api/openapi';

export function GET(req: Request) {
  return Response.json(buildOpenApiDocument(new URL(req.url).origin), {
    headers: { 'Cache-Control': 'public, max-age=300' },
  });
}
