import { handleTgWebhook } from '@/server/channels/tg/webhook';

type Params = { params: Promise<{ channel: string }> };

/** The tg messenger's webhook of one connected bot (server/channels/tg/webhook.ts). */
export async function POST(req: Request, { params }: Params) {
  return handleTgWebhook(req, (await params).channel);
}
