import type { ChannelHttpMethod } from '@/server/channels/channel-module';
import { moduleOf } from '@/server/channels/modules';

type Params = { params: Promise<{ kind: string; channel: string; path?: string[] }> };

/**
 * Every channel's HTTP: `/api/channels/<kind>/<channel>` is its webhook, what lies below it the
 * kind's endpoints, both handed to its module (server/channels/<kind>/module.ts).
 */
function handle(method: ChannelHttpMethod) {
  return async (req: Request, { params }: Params): Promise<Response> => {
    const { kind, channel, path = [] } = await params;
    const module = moduleOf(kind);
    const handler = path.length
      ? module?.endpoints?.[method]
      : method === 'OPTIONS'
        ? undefined
        : module?.webhook?.[method];
    if (!handler) {
      const what = path.length ? `endpoint /${path.join('/')}` : 'webhook';
      return Response.json({ error: `no ${method} ${what} for channels of kind ${kind}` }, { status: 404 });
    }
    return handler(req, channel, path);
  };
}

export const GET = handle('GET');
export const POST = handle('POST');
export const OPTIONS = handle('OPTIONS');
