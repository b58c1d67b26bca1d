import { type WebhookChannelRow, webhookChannel } from '@/server/db/channel-update-sql';
import { plainSql } from '@/server/db/raw-sql';
import type { EngineDeps } from '@/server/engine/engine-deps';
import type { ChannelRow } from './channel-module';

/**
 * A kind's webhook channels as its webhook checks requests against them (secret, bot id,
 * opened credentials), read once per process: every update's insert checks the channel still
 * has the secret and bot id the copy had (storeUpdates' `webhook`), so a channel disconnected,
 * reconnected or changed on another instance is read again at its next update, and none is
 * stored on a stale copy. A request that fails the copy's check reads the channel again too.
 */

/** Channels kept per process, per kind (the longest kept beyond this many is dropped). */
const MAX_CACHED = 1024;

export interface WebhookChannels<T> {
  /** The copy kept of the channel, if any. */
  cached(id: number): T | undefined;
  /** The channel as it is now, kept for the next request; undefined when none receives here. */
  read(deps: EngineDeps, id: number): Promise<T | undefined>;
  /** The copy kept, else the channel read. */
  current(deps: EngineDeps, id: number): Promise<T | undefined>;
  /** Drops the copy: the channel's row changed. */
  forget(id: number): void;
}

/** `open`: the row as the webhook uses it (its credentials opened), or undefined for none. */
export function webhookChannels<T>(
  kind: ChannelRow['kind'],
  open: (row: WebhookChannelRow) => T | undefined,
): WebhookChannels<T> {
  const cached = new Map<number, T>();
  async function read(deps: EngineDeps, id: number): Promise<T | undefined> {
    cached.delete(id);
    if (!id) return undefined;
    const [row] = await plainSql(deps.db).run(webhookChannel, { id, kind });
    const channel = row && open(row);
    if (channel === undefined) return undefined;
    cached.set(id, channel);
    if (cached.size > MAX_CACHED) cached.delete(cached.keys().next().value as number);
    return channel;
  }
  return {
    cached: (id) => cached.get(id),
    read,
    current: async (deps, id) => cached.get(id) ?? read(deps, id),
    forget: (id) => void cached.delete(id),
  };
}

/** A webhook's channel id from its address (`/api/channels/<kind>/<id>`); 0 for none. */
export const channelIdOf = (param: string) => (/^\d{1,9}$/.test(param) ? Number(param) : 0);
