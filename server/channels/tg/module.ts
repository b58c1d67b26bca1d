import { connectTgInput } from '@/lib/channels/connect-inputs';
import { tgClientView } from '@/lib/tg/client-view';
import { getDb } from '@/server/db';
import { type ChannelModule, channelOperation } from '../channel-module';
import { tgChannel } from './adapter';
import { connectTgChannel, removeTgWebhook, webhookAddressProblem } from './channel-service';
import { tgEnv } from './env';
import { tgFileResponse } from './files';
import { tgHandlers } from './functions';
import { startPolling, tgPollJob } from './polling';
import { tgInbound } from './updates';
import { handleTgWebhook } from './webhook';

/** The kind this folder is. */
export const kind = 'tg';

export const channelModule = {
  kind,
  env: tgEnv,
  webhookAddressProblem: () => webhookAddressProblem(),
  adapter: tgChannel,
  clientView: tgClientView,
  functions: tgHandlers,
  // A bot connected by long polling starts polling at once.
  connect: channelOperation(connectTgInput, (db, projectId, input) =>
    connectTgChannel(db, projectId, input, (id) => startPolling(id)),
  ),
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
} satisfies ChannelModule;
