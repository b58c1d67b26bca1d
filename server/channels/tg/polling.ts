import type { Update } from 'grammy/types';
import { CHANNEL_STATUS } from '@/lib/channels/descriptors';
import { parseUpdate } from '@/lib/tg/inbound';
import { getEngineDeps } from '@/server/engine/engine';
import { defineJob, enqueue } from '@/server/jobs/jobs';
import { outsideLogContext } from '@/server/log';
import { channelBot, TG_ALLOWED_UPDATES } from './channel-service';
import { storeUpdates } from './updates';

/**
 * Long polling for bots with no public address: one getUpdates at a time per bot, as a chain
 * of jobs (each poll queues the next). The queue's `stately` policy with the bot's singleton
 * key, and one job per bot's group at a time, keep it to one poller across every worker; a
 * worker that dies mid-poll has its job retried by another.
 */

/** How long one getUpdates waits for an update. */
export const POLL_TIMEOUT_SECONDS = 25;
/** The pause after a failed poll (the messenger unreachable, a webhook set elsewhere). */
const RETRY_SECONDS = 5;

interface PollJobData {
  channelId: number;
}

export async function startPolling(channelId: number, afterSeconds = 0): Promise<void> {
  // Each poll queues the next: the chain must not carry the id of the request that began it.
  await outsideLogContext(() =>
    enqueue(
      tgPollJob,
      { channelId },
      { singletonKey: `tg-poll-${channelId}`, ...(afterSeconds ? { startAfter: afterSeconds } : {}) },
    ),
  );
}

/** One getUpdates of the bot; the updates are stored before the offset moves past them. */
export async function pollOnce(channelId: number): Promise<'again' | 'retry' | 'stop'> {
  const deps = await getEngineDeps();
  const { db } = deps;
  const channel = await db.channel.findFirst({ where: { id: channelId, kind: 'tg' } });
  if (channel?.receiveMode !== 'polling' || channel.status === CHANNEL_STATUS.stopped) return 'stop';
  const polled = await channelBot(channel).call((api) =>
    api.getUpdates({
      offset: Number(channel.pollOffset),
      timeout: POLL_TIMEOUT_SECONDS,
      allowed_updates: [...TG_ALLOWED_UPDATES],
    }),
  );
  if (!polled.ok) {
    const revoked = polled.reason === 'invalid_token';
    await db.channel.update({
      where: { id: channelId },
      data: revoked
        ? {
            status: CHANNEL_STATUS.stopped,
            lastError: `Polling stopped: the tg messenger refused the token (${polled.description}); it was revoked or changed in BotFather. Disconnect the bot and connect it with its new token.`,
          }
        : { lastError: `getUpdates failed: ${polled.description}` },
    });
    return revoked ? 'stop' : 'retry';
  }
  const updates = polled.result as Update[];
  await storeUpdates(
    deps,
    channelId,
    updates.map((u) => ({
      updateId: u.update_id,
      payload: u,
      inbound: parseUpdate(u, { botUsername: channel.groupId }),
    })),
  );
  const last = updates.at(-1)?.update_id;
  await db.channel.update({
    where: { id: channelId },
    data: { ...(last !== undefined ? { pollOffset: BigInt(last) + 1n } : {}), lastError: null },
  });
  return 'again';
}

export const tgPollJob = defineJob<PollJobData>({
  name: 'tg.poll',
  policy: 'stately',
  batchSize: 5,
  groups: { of: (data) => `tg-poll-${data.channelId}`, perGroup: 1, workers: 4 },
  async handle(data) {
    const next = await pollOnce(data.channelId);
    if (next !== 'stop') await startPolling(data.channelId, next === 'retry' ? RETRY_SECONDS : 0);
  },
});
