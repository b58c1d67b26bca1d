import { getDb } from '@/server/db';
import type { ChannelModule } from '../channel-module';
import { tgChannel } from './adapter';
import { removeTgWebhook } from './channel-service';
import { tgFileResponse } from './files';
import { tgHandlers } from './functions';
import { tgPollJob } from './polling';
import { tgInbound } from './updates';
import { handleTgWebhook } from './webhook';

export const tgModule: ChannelModule = {
  kind: 'tg',
  adapter: tgChannel,
  functions: tgHandlers,
  jobs: [tgPollJob],
  disconnect: removeTgWebhook,
  inbound: tgInbound,
  webhook: { POST: handleTgWebhook },
  endpoints: {
    // A client's file or avatar through the bot, by a signed URL: `<kind>/<id>` (files.ts).
    GET: async (req, channel, path) =>
      path.length === 2
        ? tgFileResponse(await getDb(), req, { channel, kind: path[0], id: path[1] })
        : Response.json({ error: 'A tg file address is /<kind>/<id>.' }, { status: 404 }),
  },
};
