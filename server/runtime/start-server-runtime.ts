import v8 from 'node:v8';
import { getEnv, isServerMode } from '@/server/config/env';
import { startRuntime } from './runtime';

/**
 * On the embedded database, V8 runs PostgreSQL's WebAssembly with its baseline compiler only:
 * optimising its hot functions in the background left 60–100 MiB of the compilers' freed
 * working memory in the process's malloc arenas for good, for about a tenth more database
 * speed (`npm run bench -- start`: 367–412 MiB at rest, 495 after use; with it 300 and 390–420;
 * docs/operations.md, "Memory").
 */
const EMBEDDED_WASM_FLAGS = '--liftoff-only';

/**
 * Runs once when `next start` boots: configuration, database and migrations, and in embedded
 * mode (or with BLOCKBOT_INLINE_WORKER=true) the job worker. Requests wait until it is done.
 */
export async function startServerRuntime(): Promise<void> {
  const env = getEnv();
  if (!isServerMode(env)) v8.setFlagsFromString(EMBEDDED_WASM_FLAGS);
  const inlineWorker = env.BLOCKBOT_INLINE_WORKER
    ? env.BLOCKBOT_INLINE_WORKER === 'true'
    : env.DATABASE_URL === undefined;
  await startRuntime({ worker: inlineWorker, role: 'web' });
}
