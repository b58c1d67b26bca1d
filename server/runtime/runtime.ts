import { startFlowRollUp } from '@/server/analytics/roll-up';
import { installChannels } from '@/server/channels/registry';
import { getEnv } from '@/server/config/env';
import { getSecrets } from '@/server/config/secrets';
import { closeDb, getDatabase, StartupError } from '@/server/db';
import { getEngineDeps, resumePendingSends } from '@/server/engine/engine';
import { startOutboxSweeper } from '@/server/engine/outbox';
import { healthState } from '@/server/health/health-state';
import { stopBoss } from '@/server/jobs/boss';
import { startWorkers } from '@/server/jobs/jobs';
import { jobDefinitions } from '@/server/jobs/registry';
import { resumeIndexing } from '@/server/knowledge/index-job';
import { liveHub } from '@/server/live/live-events';
import { connectLiveHub } from '@/server/live/live-transport';
import { logFor } from '@/server/log';

const log = logFor('server');

let stopping = false;

/**
 * Shared start-up of the web server and the worker process. A configuration or database
 * problem ends the process with one clear line instead of a stack trace.
 */
export async function startRuntime(options: { worker: boolean; role: 'web' | 'worker' }): Promise<void> {
  try {
    getEnv();
    getSecrets();
    // The engine imports no channel: it gets their adapters and in-flow functions here.
    installChannels();
    // Live events from this process's engine reach the inbox and widget streams of every instance.
    await connectLiveHub(liveHub(), await getDatabase());
    if (options.worker) {
      await startWorkers(jobDefinitions);
      await resumePendingSends();
      // Documents stored for indexing whose job was never queued (a crash in between).
      await resumeIndexing((await getEngineDeps()).db);
      // Side effects of events committed before a crash, and from now on any left undone.
      await startOutboxSweeper(await getEngineDeps());
      startFlowRollUp((await getEngineDeps()).db);
    }
  } catch (error) {
    if (error instanceof StartupError || (error as Error).name === 'EnvError') {
      log.fatal(`Blockbot could not start: ${(error as Error).message}`);
      process.exit(1);
    }
    throw error;
  }
  Object.assign(healthState(), { role: options.role, runsJobs: options.worker });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void shutdown(signal));
  log.info(`${options.role} ready${options.worker ? ' (job worker running)' : ''}`);
}

/** Set by the production server (scripts/start.mjs): stops taking requests, lets those in flight finish. */
const STOP_HTTP = Symbol.for('blockbot.stopHttp');

/**
 * Turns /api/ready to 503 and gives the load balancer BLOCKBOT_SHUTDOWN_DELAY_SECONDS to notice,
 * then stops taking requests and jobs, lets running ones finish, and closes the database
 * (PGlite must be closed cleanly).
 */
export async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  healthState().stopping = true;
  const delay = getEnv().BLOCKBOT_SHUTDOWN_DELAY_SECONDS;
  log.info(`${signal}: shutting down${delay ? ` in ${delay} s (not ready meanwhile)` : ''}`);
  try {
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay * 1000));
    const stopHttp = (globalThis as Record<symbol, unknown>)[STOP_HTTP] as (() => Promise<void>) | undefined;
    await stopHttp?.();
    await stopBoss();
    await liveHub().close();
    await closeDb();
  } finally {
    process.exit(0);
  }
}
