import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { getEngineDeps } from '@/server/engine/engine';
import { defineJob, enqueue, enqueueMany } from '@/server/jobs/jobs';
import {
  type BroadcastControl,
  type BroadcastDispatchData,
  type BroadcastInput,
  type BroadcastSendData,
  beginBroadcast,
  controlBroadcast,
  createBroadcast,
  dispatchStep,
  type QueuedSend,
  sendBroadcastMessage,
  updateDraft,
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

const queueSends = (sends: QueuedSend[]) =>
  enqueueMany(
    broadcastSendJob,
    sends.map((s) => ({ ...s, retryLimit: 2 })),
  );

/**
 * The dispatcher (docs/broadcasts.md): a broadcast's sends are queued in batches as it goes,
 * never all at once; one dispatch job per broadcast and epoch runs a step and queues itself for
 * the next. A scheduled broadcast's first dispatch runs at its time and records its recipients.
 */
export const broadcastDispatchJob = defineJob<BroadcastDispatchData>({
  name: 'broadcast.dispatch',
  batchSize: 5,
  pollingIntervalSeconds: 0.5,
  async handle(data) {
    const db = (await getDb()) as PrismaClient;
    const b = await db.broadcast.findFirst({ where: { id: data.broadcastId, projectId: data.projectId } });
    if (b?.status === 'scheduled') {
      const started = await beginBroadcast(db, data.projectId, data.broadcastId);
      if (started?.status !== 'running') return;
      data = { ...data, epoch: started.epoch };
    }
    await dispatch(db, data);
  },
});

async function dispatch(db: PrismaClient, data: BroadcastDispatchData) {
  const next = await dispatchStep(db, data, queueSends);
  if (next) await enqueue(broadcastDispatchJob, data, { startAfter: next, retryLimit: 5 });
}

/**
 * Creates a broadcast and starts it: now (the first batches queued at once), at its time (a
 * dispatch job then), or not at all (a draft). The one entry of the API and the screen.
 */
export async function startBroadcast(db: PrismaClient, projectId: number, input: BroadcastInput) {
  return launch(db, projectId, await createBroadcast(db, projectId, input));
}

/** A draft's edit saved (`updateDraft`), and started now or at its time as the edit says. */
export async function editDraft(
  db: PrismaClient,
  projectId: number,
  broadcastId: number,
  input: BroadcastInput,
) {
  return launch(db, projectId, await updateDraft(db, projectId, broadcastId, input));
}

async function launch<B extends { id: number; status: string; epoch: number; scheduledAt: Date | null }>(
  db: PrismaClient,
  projectId: number,
  broadcast: B,
) {
  if (broadcast.status === 'running')
    await dispatch(db, { projectId, broadcastId: broadcast.id, epoch: broadcast.epoch });
  if (broadcast.status === 'scheduled' && broadcast.scheduledAt)
    await enqueue(
      broadcastDispatchJob,
      { projectId, broadcastId: broadcast.id, epoch: broadcast.epoch },
      { startAfter: broadcast.scheduledAt, retryLimit: 5 },
    );
  return broadcast;
}

/** Sends a draft now. */
export async function sendDraft(db: PrismaClient, projectId: number, broadcastId: number) {
  const b = await beginBroadcast(db, projectId, broadcastId);
  if (b?.status === 'running') await dispatch(db, { projectId, broadcastId, epoch: b.epoch });
  return b;
}

/** Pause, resume or cancel; a resumed broadcast's dispatcher starts again from its first pending recipient. */
export async function changeBroadcast(
  db: PrismaClient,
  projectId: number,
  broadcastId: number,
  action: BroadcastControl,
) {
  const b = await controlBroadcast(db, projectId, broadcastId, action);
  if (action === 'resume' && b.status === 'running')
    await dispatch(db, { projectId, broadcastId, epoch: b.epoch });
  return b;
}
