import type { ChannelDescriptor } from '@/lib/channels/descriptors';
import type { Db } from '@/server/db/client-type';
import type { AreaHandlers } from '@/server/engine/functions/registry';
import type { JobDefinition } from '@/server/jobs/jobs';
import type { ChannelAdapter } from './channel-adapter';
import type { InboundProcessor } from './inbound/pipeline';

export type ChannelRow = Awaited<ReturnType<Db['channel']['findFirstOrThrow']>>;

/**
 * What a channel kind's folder (`server/channels/<kind>/module.ts`) gives the generic code,
 * registered once in `server/channels/modules.ts`. What it is and can show is its descriptor
 * (lib/channels/descriptors.ts).
 */
export interface ChannelModule {
  kind: ChannelDescriptor['kind'];
  /** Sends the bot's messages to the kind's clients and carries out its in-flow functions. */
  adapter: ChannelAdapter;
  /** Its in-flow functions (`tg_*`, `chatapp_*`…): handed to the engine at start with the adapter. */
  functions?: AreaHandlers;
  /** Its job kinds (tg's long polling, telephony's recordings), handled by every worker. */
  jobs?: readonly JobDefinition<never>[];
  /**
   * Undoes at the messenger what connecting did (a webhook set) as the channel is
   * disconnected, best effort; what went wrong, shown beside the disconnection.
   */
  disconnect?(channel: ChannelRow): Promise<string | null>;
  /** What its stored inbound updates mean, for a kind that receives webhooks or polls. */
  inbound?: InboundProcessor<unknown>;
  /**
   * Its webhook's handlers, served at `/api/channels/<kind>/<channel id>` by method: the one
   * route family (app/api/channels/[kind]/[channel]/[[...path]]/route.ts) hands them on.
   */
  webhook?: Partial<Record<'GET' | 'POST', (req: Request, channelParam: string) => Promise<Response>>>;
  /**
   * What the kind serves below its channel's address, `/api/channels/<kind>/<channel id>/…`
   * (the widget's endpoints, the tg messenger's files), by method; `path` is the segments
   * after the channel, never empty.
   */
  endpoints?: Partial<Record<ChannelHttpMethod, ChannelEndpoint>>;
}

export type ChannelHttpMethod = 'GET' | 'POST' | 'OPTIONS';
export type ChannelEndpoint = (
  req: Request,
  channelParam: string,
  path: readonly string[],
) => Promise<Response>;
