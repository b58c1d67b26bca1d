import type { Attachment, Buttons } from '@/lib/schema';
import type { PrismaClient } from '@/server/db/client-type';

/**
 * What the engine needs of the channels, defined here so the engine imports no channel: an
 * adapter a messenger (`server/channels/<kind>/adapter.ts`) implements, and the adapters the
 * runtime installed at start (`installChannels` in server/channels/registry.ts, from the channel
 * modules). The channels import the engine, never the other way.
 */

export interface OutgoingMessage {
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
  blockId: number | null;
}

/**
 * What the caller gives an adapter: its database handle (the engine's, a test's). Sends run after
 * the commit, outside any transaction: pacing (tg) takes row locks that must not wait for one.
 */
export interface ChannelContext {
  db: PrismaClient;
}

/** A send's context: the database, and what the outbox knows of the message's earlier tries. */
export interface SendContext extends ChannelContext {
  /** One per message: a send cut off by a crash is attempted again with the same key. */
  idempotencyKey?: string;
  /**
   * How many of the message's parts (a channel may send one message as several calls) the
   * messenger already answered, in a try cut off by a crash: they are not sent again.
   */
  partsSent?: number;
  /** Records that the first `count` parts were answered, before the next is sent. */
  onPartSent?(count: number): Promise<void>;
  /** When the message was first handed to the channel (absent: now); a held send's horizon counts from it. */
  queuedAt?: Date;
  /** How many times it was handed to the channel before (0 the first time): a held send's pause grows with it. */
  attempt?: number;
}

export interface DeliveryResult {
  delivered: boolean;
  error?: string;
  /** The messenger's id of what it sent (its last part's): later status reports name it. */
  externalId?: string;
  /**
   * Not delivered yet, and worth trying again then (the messenger is down for longer than a
   * send waits, a session is not paired): the message stays queued with `error` as the reason,
   * and the outbox hands it to `send` again at this time, from any process (a held send).
   */
  retryAt?: Date;
}

export interface ChannelClient {
  id: number;
  projectId: number;
  platformId: string;
  groupId: string;
  clientType: number;
}

/**
 * One messenger behind one interface. The engine stores every outgoing message first (with an
 * outbox row when the channel really sends), then hands it to the client's adapter;
 * messenger-only functions (tg_*, chatapp_message) go through `call`, so the simulator can
 * record what they would have done.
 */
export interface ChannelAdapter {
  clientType: number;
  /**
   * A stored message is already delivered (the simulator's chat reads the history): it is
   * stored so, and the outcome of the send is recorded only when it differs.
   */
  deliveredWhenStored?: boolean;
  /** Live `typing` events while the bot works on an event of this channel's client (the widget shows them). */
  typingIndicator?: boolean;
  /**
   * The adapter may answer `retryAt` (a held send): a client's later messages then wait behind
   * its held ones, so none overtakes another. Adapters that never hold leave it unset: their
   * sends skip the look-up.
   */
  holdsSends?: boolean;
  /**
   * Sends a stored message. A send cut off by a crash is attempted again with the same
   * `idempotencyKey` (one per message), for messengers that can drop the copy, and from its
   * first part without a recorded answer.
   */
  send(client: ChannelClient, message: OutgoingMessage, context: SendContext): Promise<DeliveryResult>;
  /** A messenger-specific function; throws a clear error when the channel does not support it. */
  call(
    projectId: number,
    fn: string,
    args: Record<string, unknown>,
    context: ChannelContext,
  ): Promise<unknown>;
}

/**
 * The installed adapters by client type, one map per process (Next.js bundles this module into
 * several server chunks; the runtime installs into one of them).
 */
const globalForPorts = globalThis as unknown as { blockbotChannelAdapters?: Map<number, ChannelAdapter> };
const installed = globalForPorts.blockbotChannelAdapters ?? new Map<number, ChannelAdapter>();
globalForPorts.blockbotChannelAdapters = installed;

/** The runtime's start (and a test's setup) hands the channel modules' adapters to the engine. */
export function installChannelAdapters(adapters: readonly ChannelAdapter[]): void {
  for (const adapter of adapters)
    if (!installed.has(adapter.clientType)) installed.set(adapter.clientType, adapter);
}

/** Puts an adapter in place of its client type's (a test's recording channel). */
export function registerChannel(adapter: ChannelAdapter): void {
  installed.set(adapter.clientType, adapter);
}

function unavailable(clientType: number): ChannelAdapter {
  const error = `No channel adapter for client type ${clientType} is available on this server yet.`;
  return {
    clientType,
    async send(): Promise<DeliveryResult> {
      return { delivered: false, error };
    },
    async call() {
      throw new Error(error);
    },
  };
}

/** The adapter of a client type; one that explains so when none is installed for it. */
export function channelFor(clientType: number): ChannelAdapter {
  const adapter = installed.get(clientType);
  if (adapter) return adapter;
  if (!installed.size)
    throw new Error(
      'No channel is installed: the runtime installs them at start (installChannels, server/channels/registry.ts).',
    );
  return unavailable(clientType);
}
