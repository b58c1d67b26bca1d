import { getEnv } from '@/server/config/env';
import { startRuntime } from './runtime';

/**
 * Runs once when `next start` boots: configuration, database and migrations, and in embedded
 * mode (or with BLOCKBOT_INLINE_WORKER=true) the job worker. Requests wait until it is done.
 */
export async function startServerRuntime(): Promise<void> {
  const env = getEnv();
  const inlineWorker = env.BLOCKBOT_INLINE_WORKER
    ? env.BLOCKBOT_INLINE_WORKER === 'true'
    : env.DATABASE_URL === undefined;
  await startRuntime({ worker: inlineWorker, role: 'web' });
}
