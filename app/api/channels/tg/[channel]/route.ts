import { exposeTgWebhookToProductionServer, handleTgWebhook } from '@/server/channels/tg/webhook';

// `npm start` serves later updates straight from node:http (scripts/start.mjs); this route
// answers the first one, and every update under `next dev` and `next start`.
exposeTgWebhookToProductionServer();

type Params = { params: Promise<{ channel: string }> };

/** The tg messenger's webhook of one connected bot (server/channels/tg/webhook.ts). */
export async function POST(req: Request, { params }: Params) {
  return handleTgWebhook(req, (await params).channel);
}
