import { TEST_RUN_GROUP } from '@/lib/simulator/editions';
import { getDb } from '@/server/db';
import { safeFetch } from '@/server/http';
import { queueWebhookDeliveries } from '@/server/webhooks/webhook-jobs';
import type { EngineDeps } from './engine-deps';
import { handleEvent } from './handle-event';
import { pgBossScheduler, queueScheduledSend, type ScheduledJobData } from './scheduler';

/** A scheduled send coming due: the same flow as any other event of the client. */
async function runScheduled(data: ScheduledJobData) {
  await handleEvent(
    await getEngineDeps(),
    data.projectId,
    { clientId: data.clientId },
    { type: 'scheduled', scheduledSendId: data.scheduledSendId },
  );
}

const { scheduler, job } = pgBossScheduler(runScheduled);
export const scheduledSendJob = job;

const globalForEngine = globalThis as unknown as { blockbotEngineDeps?: Promise<EngineDeps> };

/** The engine's production dependencies: the app database, the safe HTTP client, pg-boss timers. */
export function getEngineDeps(): Promise<EngineDeps> {
  globalForEngine.blockbotEngineDeps ??= (async () => ({
    db: await getDb(),
    http: (url, init) => safeFetch(url, init),
    scheduler,
    now: () => new Date(),
    queueWebhooks: queueWebhookDeliveries,
  }))();
  return globalForEngine.blockbotEngineDeps;
}

/**
 * Sends recorded before a crash between the commit and the enqueue have no job yet: give
 * them one when a worker starts. The job's singleton key keeps this from doubling any.
 */
export async function resumePendingSends(): Promise<number> {
  const deps = await getEngineDeps();
  const orphans = await deps.db.scheduledSend.findMany({
    // A conversation test's timers fire on its own clock; one left by a run cut off is never queued.
    where: { status: 'pending', jobId: null, client: { NOT: { groupId: { startsWith: TEST_RUN_GROUP } } } },
    take: 10_000,
  });
  for (const send of orphans) await queueScheduledSend(deps.db, scheduler, send);
  return orphans.length;
}
