import type { PrismaClient } from '@/server/db/client-type';
import { cancelJob, defineJob, enqueue } from '@/server/jobs/jobs';

export interface ScheduledJobData {
  projectId: number;
  clientId: number;
  scheduledSendId: number;
}

/** Durable timers and delayed messages: a ScheduledSend row plus one pg-boss job each. */
export interface Scheduler {
  schedule(data: ScheduledJobData, runAt: Date): Promise<string | null>;
  cancel(jobId: string): Promise<void>;
}

export const SCHEDULED_QUEUE = 'engine.scheduled';

/** The queue's handler is attached where the engine is assembled (server/engine/engine.ts). */
export function pgBossScheduler(handle: (data: ScheduledJobData) => Promise<void>): {
  scheduler: Scheduler;
  job: ReturnType<typeof defineJob<ScheduledJobData>>;
} {
  const job = defineJob<ScheduledJobData>({
    name: SCHEDULED_QUEUE,
    handle,
    batchSize: 50,
    pollingIntervalSeconds: 0.5,
  });
  return {
    job,
    scheduler: {
      // The singleton key makes a repeated enqueue of one send a no-op.
      schedule: (data, runAt) =>
        enqueue(job, data, {
          startAfter: runAt,
          singletonKey: `send-${data.scheduledSendId}`,
          retryLimit: 3,
        }),
      cancel: (jobId) => cancelJob(job as never, jobId),
    },
  };
}

/** Queues a stored ScheduledSend's job and records its id (after the event's commit, or on a restart). */
export async function queueScheduledSend(
  db: PrismaClient,
  scheduler: Scheduler,
  send: { id: number; projectId: number; clientId: number; runAt: Date },
) {
  const jobId = await scheduler.schedule(
    { projectId: send.projectId, clientId: send.clientId, scheduledSendId: send.id },
    send.runAt,
  );
  if (jobId) await db.scheduledSend.update({ where: { id: send.id }, data: { jobId } });
}
