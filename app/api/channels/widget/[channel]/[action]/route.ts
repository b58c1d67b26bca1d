import { handleWidgetRequest } from '@/server/channels/widget/http';

type Params = { params: Promise<{ channel: string; action: string }> };

/** The chat widget's endpoints for widget.js (server/channels/widget/http.ts). */
async function handle(req: Request, { params }: Params) {
  const { channel, action } = await params;
  return handleWidgetRequest(req, channel, action);
}

export { handle as GET, handle as POST, handle as OPTIONS };
