import type { PrismaClient } from '@/server/db/client-type';
import { getEngineDeps } from '@/server/engine/engine';
import { defineJob, enqueueMany } from '@/server/jobs/jobs';
import {
  type BroadcastInput,
  type BroadcastSendData,
  createBroadcast,
  sendBroadcastMessage,
} from './broadcast-service';

/**
 * A recipient's send mostly waits: for the bot's turn, and between the parts of its message for
 * the chat's second (a photo and a long text are two sends, a second apart). Recipients run side
 * by side, up to 2 batches of 25 in flight, so the bot sends at its rate (about 28 a second) for
 * messages of up to about ten parts; one after another, each recipient cost its chat's second.
 */
export const broadcastSendJob = defineJob<BroadcastSendData>({
  name: 'broadcast.send',
  batchSize: 25,
  sideBySide: { workers: 2 },
  pollingIntervalSeconds: 0.5,
  async handle(data) {
    await sendBroadcastMessage(await getEngineDeps(), data);
  },
});

/** A broadcast to N recipients becomes N durable jobs spaced by `shift`. */
export async function startBroadcast(db: PrismaClient, projectId: number, input: BroadcastInput) {
  const { broadcast, sends } = await createBroadcast(db, projectId, input);
  await enqueueMany(
    broadcastSendJob,
    sends.map((s) => ({ ...s, retryLimit: 2 })),
  );
  return broadcast;
}
