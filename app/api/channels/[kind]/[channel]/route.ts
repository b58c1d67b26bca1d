import { moduleOf } from '@/server/channels/modules';

type Params = { params: Promise<{ kind: string; channel: string }> };

/** A channel's webhook, handed to its module (server/channels/<kind>/module.ts, `webhook`). */
async function handle(method: 'GET' | 'POST', req: Request, { params }: Params): Promise<Response> {
  const { kind, channel } = await params;
  const handler = moduleOf(kind)?.webhook?.[method];
  if (!handler)
    return Response.json({ error: `no ${method} webhook for channels of kind ${kind}` }, { status: 404 });
  return handler(req, channel);
}

export const GET = (req: Request, ctx: Params) => handle('GET', req, ctx);
export const POST = (req: Request, ctx: Params) => handle('POST', req, ctx);
