import type { PrismaClient } from '@/server/db/client-type';
import { getEngineDeps } from '@/server/engine/engine';
import { defineJob, enqueueMany } from '@/server/jobs/jobs';
import {
  type BroadcastInput,
  type BroadcastSendData,
  createBroadcast,
  sendBroadcastMessage,
} from './broadcast-service';

export const broadcastSendJob = defineJob<BroadcastSendData>({
  name: 'broadcast.send',
  batchSize: 50,
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
