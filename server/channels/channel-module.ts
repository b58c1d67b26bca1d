import type { z } from 'zod';
import type { ChannelDescriptor } from '@/lib/channels/descriptors';
import type { ClientView } from '@/lib/conversation-tests/client-view';
import type { EnvSection } from '@/server/config/env';
import type { Db } from '@/server/db/client-type';
import type { AreaHandlers } from '@/server/engine/functions/registry';
import type { JobDefinition } from '@/server/jobs/jobs';
import type { ChannelAdapter } from './channel-adapter';
import type { InboundProcessor } from './inbound/pipeline';

export type ChannelRow = Awaited<ReturnType<Db['channel']['findFirstOrThrow']>>;

/**
 * Something a manager does to a kind's channels from the Channels tab (connect, change the
 * settings, a kind's own: a gateway's pairing), through the generic procedures of
 * `server/trpc/routers/channels.ts`: its input, checked there beside `projectId` and `kind` (the
 * issues name its fields), and what it does, inside the project.
 */
export interface ChannelOperation<Input = unknown, Parsed = unknown, Output = unknown> {
  input: z.ZodType<Parsed, Input>;
  run(db: Db, projectId: number, input: Parsed): Promise<Output>;
}

/** A typed ChannelOperation: `run` gets what `input` parsed. */
export const channelOperation = <Input, Parsed, Output>(
  input: z.ZodType<Parsed, Input>,
  run: (db: Db, projectId: number, input: Parsed) => Promise<Output>,
): ChannelOperation<Input, Parsed, Output> => ({ input, run });

/**
 * A public API action that asks one of the kind's connected channels (`check_chatapp`): the
 * public API serves each module's checks (server/public-api/actions/channel-checks.ts), answering
 * 400 `channel_not_connected` while the project has none of the kind's channels connected.
 */
export interface ChannelApiCheck<S extends z.ZodType = z.ZodType> {
  name: string;
  /** The commercial platform's name for it (`check_whatsapp`), still answered as a deprecated alias. */
  alias?: string;
  summary: string;
  description?: string;
  /** What its errors call the kind's channel ("chat-app bot"). */
  label: string;
  /** Its parameters (lib/api-params.ts), as for any action. */
  input: S;
  example: Record<string, unknown>;
  responseExample: Record<string, unknown>;
  /** The kind's in-flow function that answers it, asked through the adapter with the parameters. */
  fn: string;
  /** The action's payload from the function's answer; a DomainError with an `apiCode` for a refusal. */
  answer(result: unknown, input: z.infer<S>): Record<string, unknown>;
}

/** A typed ChannelApiCheck: `answer` gets what `input` parsed. */
export const channelApiCheck = <S extends z.ZodType>(check: ChannelApiCheck<S>): ChannelApiCheck =>
  check as unknown as ChannelApiCheck;

/**
 * What a channel kind's folder (`server/channels/<kind>/module.ts`) gives the generic code,
 * registered once in `server/channels/modules.ts`. What it is and can show is its descriptor
 * (lib/channels/descriptors.ts).
 */
export interface ChannelModule {
  kind: ChannelDescriptor['kind'];
  /** Sends the bot's messages to the kind's clients and carries out its in-flow functions. */
  adapter: ChannelAdapter;
  /** Connecting one of its channels (creating a widget), from the Channels tab. */
  connect?: ChannelOperation;
  /** Changing one of its channels' settings (the input names the `channelId`). */
  update?: ChannelOperation;
  /** Its own reads and changes from its card (a gateway's pairing state, a session's restart). */
  queries?: Record<string, ChannelOperation>;
  actions?: Record<string, ChannelOperation>;
  /**
   * How its client sees one of the bot's messages (`lib/<kind>/client-view.ts`, over its own
   * renderer): a conversation test run as this kind compares that (docs/conversation-tests.md).
   */
  clientView?: ClientView;
  /** Its in-flow functions (`tg_*`, `chatapp_*`…): handed to the engine at start with the adapter. */
  functions?: AreaHandlers;
  /** Its public API checks (`check_chatapp`), served as actions by the public API. */
  apiChecks?: readonly ChannelApiCheck[];
  /**
   * Its configuration variables (`<kind>/env.ts`, an envSection): checked with the others as
   * the channels are installed, so a wrong value stops the start naming the variable.
   */
  env?: EnvSection<unknown>;
  /** Its job kinds (tg's long polling, telephony's recordings), handled by every worker. */
  jobs?: readonly JobDefinition<never>[];
  /**
   * Undoes at the messenger what connecting did (a webhook set) as the channel is
   * disconnected, best effort; what went wrong, shown beside the disconnection.
   */
  disconnect?(channel: ChannelRow): Promise<string | null>;
  /**
   * Why the messenger cannot call this server's webhooks at BLOCKBOT_BASE_URL (`webhookAddress`,
   * worded for the kind), or null when it can: shown on its section of the Channels tab.
   */
  webhookAddressProblem?(): string | null;
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
